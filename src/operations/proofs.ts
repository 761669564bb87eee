/**
 * Boot and app proofs: `get_boot_proof`, `get_latest_boot_proof` and `list_app_proofs`.
 *
 * The hosted service runs in AWS Nitro enclaves: each enclave app, when it boots, gets a boot proof (the
 * Nitro attestation document over its QOS manifest and ephemeral key), and activities submitted with
 * `generateAppProofs` carry app proofs signed by that ephemeral key, which `@turnkey/core`'s `verifyAppProofs`
 * checks against the boot proof. custodian runs in no enclave, so it has neither, and never pretends to:
 * `list_app_proofs` answers an activity's proofs truthfully as none, and both boot-proof queries refuse
 * with NOT_FOUND, reason `NOT_ATTESTED`, saying why. A client verifying proofs therefore gets a clear
 * refusal (core's `FETCH_BOOT_PROOF_ERROR` carrying that message) instead of a forged or empty attestation.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { defineQuery } from "../contract/operation.js";
import { id, withoutNul } from "../contract/schema.js";

/** The hosted `v1BootProof` (what a boot proof would hold, were there an enclave to attest). */
export interface BootProof {
  ephemeralPublicKeyHex: string;
  awsAttestationDocB64: string;
  qosManifestB64: string;
  qosManifestEnvelopeB64: string;
  deploymentLabel: string;
  enclaveApp: string;
  owner: string;
  createdAt: { seconds: string; nanos: string };
  qosManifestVersion?: string;
}

/** The hosted `v1AppProof`. */
export interface AppProof {
  scheme: "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256";
  publicKey: string;
  proofPayload: string;
  signature: string;
}

/** An enclave's ephemeral public key: hex, at most an uncompressed P-256 point with a prefix byte or two. */
const ephemeralKey = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.maxLength(260, "must be at most 260 hex characters"),
  v.regex(/^(0x)?[0-9a-fA-F]+$/, "must be hex"),
);

const appName = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(256), withoutNul);

/** The refusal of every boot-proof request: there is no enclave, so there is nothing attested to show. */
function notAttested(what: string, field: string): CustodyError {
  return new CustodyError(
    "NOT_FOUND",
    `no boot proof for ${what}: custodian runs in no enclave, so nothing it answers is attested (its activities carry no app proofs)`,
    { field, reason: "NOT_ATTESTED" },
  );
}

export const getBootProof = defineQuery({
  method: "getBootProof",
  path: "get_boot_proof",
  request: v.object({ organizationId: id, ephemeralKey }),
  async handler(_context, request): Promise<{ bootProof: BootProof }> {
    throw notAttested(`ephemeral key ${request.ephemeralKey}`, "ephemeralKey");
  },
});

export const getLatestBootProof = defineQuery({
  method: "getLatestBootProof",
  path: "get_latest_boot_proof",
  request: v.object({ organizationId: id, appName }),
  async handler(_context, request): Promise<{ bootProof: BootProof }> {
    throw notAttested(`enclave app ${JSON.stringify(request.appName)}`, "appName");
  },
});

export const getAppProofs = defineQuery({
  method: "getAppProofs",
  path: "list_app_proofs",
  request: v.object({ organizationId: id, activityId: id }),
  async handler(context, request): Promise<{ appProofs: AppProof[] }> {
    // The activity must exist where the caller may read, as for get_activity; its proofs are none.
    await context.data.requireInOrganization(
      "activities",
      request.activityId,
      context.organization.id,
      "activity",
      "activityId",
    );
    return { appProofs: [] };
  },
});
