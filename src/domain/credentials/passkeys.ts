/**
 * Registering passkeys (WebAuthn authenticators) from their attestations, and removing them.
 *
 * @module
 */

import type * as v from "valibot";
import { CustodyError } from "../../common/errors.js";
import { encodeBase64Url } from "../../crypto/bytes.js";
import { parseRegistration } from "../../crypto/webauthn/index.js";
import { type DataWriter, INDEX } from "../../model/data.js";
import type { AuthenticatorRecord, UserRecord } from "../../model/records.js";
import { type CredentialWriteContext, credentialLocationId } from "./common.js";
import { type authenticatorParams, LIMITS } from "./params.js";

/** `v1AuthenticatorParamsV2` as parsed. */
export type AuthenticatorParams = v.InferOutput<typeof authenticatorParams>;

/**
 * Registers a passkey for a user: the attestation must verify for the engine's relying-party id and an
 * origin the organization allows; a credential id already in the organization is refused; a user holds at
 * most 10 passkeys.
 */
export async function addAuthenticator(
  context: CredentialWriteContext,
  user: UserRecord,
  params: AuthenticatorParams,
  field: string,
): Promise<AuthenticatorRecord> {
  const { data, services } = context;
  const organization = (await data.get("organizations", user.organizationId)) ?? context.organization;
  const registration = parseRegistration({
    attestation: params.attestation,
    challenge: params.challenge,
    rpId: services.webauthn.rpId,
    origins: await services.webauthn.originsFor(data, organization),
    path: field,
  });
  const key = INDEX.authenticatorByCredentialId(user.organizationId, registration.credentialId);
  if ((await data.lookup("authenticatorByCredentialId", key)) !== undefined) {
    throw new CustodyError("ALREADY_EXISTS", "this passkey is already registered in the organization", {
      field: `${field}.attestation.credentialId`,
      reason: "AUTHENTICATOR_ALREADY_EXISTS",
    });
  }
  const held = await data.listAll("authenticators", user.id);
  if (held.length >= LIMITS.authenticatorsPerUser) {
    throw new CustodyError("RESOURCE_EXHAUSTED", `a user holds at most ${LIMITS.authenticatorsPerUser} passkeys`, {
      field,
      reason: "AUTHENTICATOR_LIMIT_EXCEEDED",
      limit: LIMITS.authenticatorsPerUser,
    });
  }
  const record: AuthenticatorRecord = {
    id: context.newId(),
    organizationId: user.organizationId,
    userId: user.id,
    authenticatorName: params.authenticatorName,
    credentialId: registration.credentialId,
    publicKeyCose: encodeBase64Url(registration.publicKeyCose),
    alg: registration.alg,
    aaguid: encodeBase64Url(registration.aaguid),
    attestationType: registration.attestationType,
    transports: registration.transports,
    model: authenticatorModel(registration.transports),
    signCount: registration.signCount,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await data.put("authenticators", record);
  await data.put("credentialLocations", {
    id: credentialLocationId("authenticator", record.credentialId, user.organizationId),
    organizationId: user.organizationId,
    kind: "authenticator",
    credential: record.credentialId,
    credentialRecordId: record.id,
  });
  return record;
}

/** Deletes a passkey and the record of where it lives. */
export async function removeAuthenticator(data: DataWriter, authenticator: AuthenticatorRecord): Promise<void> {
  await data.delete("authenticators", authenticator.id);
  await data.delete(
    "credentialLocations",
    credentialLocationId("authenticator", authenticator.credentialId, authenticator.organizationId),
  );
}

/**
 * `v1Authenticator.model`. custodian keeps no AAGUID metadata (a trust decision it does not make), so the
 * description goes by the transports the browser reported.
 */
function authenticatorModel(transports: readonly string[]): string {
  if (transports.includes("AUTHENTICATOR_TRANSPORT_INTERNAL")) return "Platform authenticator";
  if (transports.includes("AUTHENTICATOR_TRANSPORT_HYBRID")) return "Phone or tablet";
  const external = ["AUTHENTICATOR_TRANSPORT_USB", "AUTHENTICATOR_TRANSPORT_NFC", "AUTHENTICATOR_TRANSPORT_BLE"];
  if (transports.some((transport) => external.includes(transport))) return "Security key";
  return "Passkey";
}
