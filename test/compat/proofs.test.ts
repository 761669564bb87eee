/**
 * Boot and app proofs through the official clients: custodian runs in no enclave, so `list_app_proofs`
 * answers an activity's proofs as none, both boot-proof queries refuse with NOT_FOUND / NOT_ATTESTED, and
 * `@turnkey/core`'s `verifyAppProofs` ends in a clear refusal (no attestation) rather than a crash or a pass.
 * Every answer is held to the API description's schema.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { type Session, StamperType, TurnkeyError, TurnkeyErrorCodes } from "@turnkey/core";
import { generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreClient } from "../support/core-client.js";
import { departuresFromDescription } from "../support/described-answer.js";
import { engineWithOrganization, subOrganizationParameters } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection } from "../support/session-client.js";

let server: RunningServer;
let fixture: Awaited<ReturnType<typeof engineWithOrganization>>;
let http: TurnkeyClient;
let activityId: string;

beforeAll(async () => {
  fixture = await engineWithOrganization();
  server = await serve(fixture.engine);
  http = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: fixture.rootKey.publicKey, apiPrivateKey: fixture.rootKey.privateKey }),
  );
  const created = await http.createWallet({
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    timestampMs: String(Date.now()),
    organizationId: fixture.organizationId,
    generateAppProofs: true,
    parameters: { walletName: "w", accounts: [] },
  });
  activityId = created.activity.id;
});

afterAll(async () => {
  await server?.close();
});

/** A `@turnkey/core` client whose active session stamps with the root user's API key. */
function rootCore() {
  const kit = coreClient({
    apiBaseUrl: server.baseUrl,
    authProxyUrl: server.baseUrl,
    authProxyConfigId: "unused",
    organizationId: fixture.organizationId,
  });
  kit.keys.keys.set(fixture.rootKey.publicKey, fixture.rootKey.privateKey);
  const session = {
    sessionType: "SESSION_TYPE_READ_WRITE",
    userId: fixture.rootUserId,
    organizationId: fixture.organizationId,
    expiry: Math.floor(Date.now() / 1000) + 3600,
    expirationSeconds: "3600",
    publicKey: fixture.rootKey.publicKey,
    token: "",
  } as unknown as Session;
  kit.storage.setStorageValue("root", session);
  kit.storage.setActiveSessionKey("root");
  return kit.client;
}

/** An app proof as an enclave would shape one, signed by a key no enclave of custodian's ever held. */
function foreignAppProof() {
  return {
    scheme: "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256" as const,
    publicKey: generateP256KeyPair().publicKeyUncompressed,
    proofPayload: JSON.stringify({ type: "APP_PROOF_TYPE_ADDRESS_DERIVATION", timestampMs: String(Date.now()) }),
    signature: "30".padEnd(140, "1"),
  };
}

describe("app proofs", () => {
  it("an activity submitted with generateAppProofs has none, and list_app_proofs says so", async () => {
    const activity = await http.getActivity({ organizationId: fixture.organizationId, activityId });
    expect(activity.activity.appProofs ?? []).toEqual([]);
    const answer = await http.getAppProofs({ organizationId: fixture.organizationId, activityId });
    expect(answer).toEqual({ appProofs: [] });
    expect(departuresFromDescription("/public/v1/query/list_app_proofs", answer)).toEqual([]);
  });

  it("list_app_proofs refuses an activity that is not there or is another organization's", async () => {
    const missing = await requestRejection(
      http.getAppProofs({ organizationId: fixture.organizationId, activityId: crypto.randomUUID() }),
    );
    expect(missing.code).toBe(5);
    expect(reasonOf(missing)).toBe("ACTIVITY_NOT_FOUND");

    const { activity } = await fixture.root.createSubOrganization({
      organizationId: fixture.organizationId,
      parameters: subOrganizationParameters("Other"),
    });
    const { subOrganizationId } = activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string };
    const elsewhere = await requestRejection(http.getAppProofs({ organizationId: subOrganizationId, activityId }));
    expect(elsewhere.code).toBe(5);
  });
});

describe("boot proofs", () => {
  it("get_boot_proof refuses as not attested, naming the key", async () => {
    const ephemeralKey = generateP256KeyPair().publicKeyUncompressed;
    const error = await requestRejection(http.getBootProof({ organizationId: fixture.organizationId, ephemeralKey }));
    expect(error.code).toBe(5);
    expect(reasonOf(error)).toBe("NOT_ATTESTED");
    expect(error.message).toContain("custodian runs in no enclave");
    expect(error.message).toContain(ephemeralKey);
  });

  it("get_latest_boot_proof refuses as not attested, naming the app", async () => {
    const error = await requestRejection(
      http.getLatestBootProof({ organizationId: fixture.organizationId, appName: "signer" }),
    );
    expect(error.code).toBe(5);
    expect(reasonOf(error)).toBe("NOT_ATTESTED");
    expect(error.message).toContain('"signer"');
  });

  it("refuses malformed requests, naming the field", async () => {
    const notHex = await requestRejection(
      http.getBootProof({ organizationId: fixture.organizationId, ephemeralKey: "not-hex" }),
    );
    expect(notHex.code).toBe(3);
    expect(notHex.message).toContain("ephemeralKey");
    const huge = await requestRejection(
      http.getBootProof({ organizationId: fixture.organizationId, ephemeralKey: "ab".repeat(10_000) }),
    );
    expect(huge.code).toBe(3);
    const emptyApp = await requestRejection(
      http.getLatestBootProof({ organizationId: fixture.organizationId, appName: "" }),
    );
    expect(emptyApp.code).toBe(3);
    expect(emptyApp.message).toContain("appName");
  });
});

describe("@turnkey/core's verifyAppProofs", () => {
  it("ends in a boot-proof refusal that says nothing is attested, never a pass", async () => {
    const client = rootCore();
    const error = await client.verifyAppProofs({ appProofs: [foreignAppProof()], stampWith: StamperType.ApiKey }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TurnkeyError);
    const turnkeyError = error as TurnkeyError;
    expect(turnkeyError.code).toBe(TurnkeyErrorCodes.FETCH_BOOT_PROOF_ERROR);
    expect(String((turnkeyError.cause as Error | undefined)?.message)).toContain("custodian runs in no enclave");
  });

  it("is given nothing to verify by list_app_proofs, and says so", async () => {
    const client = rootCore();
    const { appProofs } = await client.httpClient.getAppProofs({ activityId }, StamperType.ApiKey);
    const error = await client.verifyAppProofs({ appProofs, stampWith: StamperType.ApiKey }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TurnkeyError);
    expect((error as TurnkeyError).code).toBe(TurnkeyErrorCodes.INVALID_REQUEST);
  });
});
