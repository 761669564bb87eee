/**
 * Passkeys over the HTTP adapter with the official clients: registered with @turnkey/http's
 * `createAuthenticators`, then `X-Stamp-Webauthn` requests stamped by @turnkey/webauthn-stamper (through a
 * software authenticator behind `navigator.credentials.get`) for queries and activities; tampered, replayed,
 * foreign and cloned stamps are refused with 401.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { post, type RunningServer, serve } from "../support/server.js";
import { requestRejection as rejection } from "../support/session-client.js";
import { passkeyParams } from "../support/signers.js";
import { installNavigatorCredentials, SoftwareAuthenticator } from "../support/software-authenticator.js";

const RP_ID = "wallet.example";
const ORIGIN = "https://wallet.example";

let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let rootUserId: string;
let rootKey: ApiKeyPair;
let uninstall: (() => void) | undefined;

beforeAll(async () => {
  ({ engine, organizationId, rootUserId, rootKey } = await engineWithOrganization({
    webauthn: { rpId: RP_ID, origins: [ORIGIN] },
  }));
  server = await serve(engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

afterEach(() => {
  uninstall?.();
  uninstall = undefined;
});

function apiKeyClient(): TurnkeyClient {
  const stamper = new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey });
  return new TurnkeyClient({ baseUrl: server.baseUrl }, stamper);
}

/** A client whose requests the official WebAuthn stamper signs with `authenticator` at `origin`. */
function passkeyClient(authenticator: SoftwareAuthenticator, origin = ORIGIN): TurnkeyClient {
  uninstall?.();
  uninstall = installNavigatorCredentials(authenticator, origin);
  return new TurnkeyClient({ baseUrl: server.baseUrl }, new WebauthnStamper({ rpId: RP_ID }));
}

/** Registers a new passkey for the root user over HTTP and returns its authenticator. */
async function registeredPasskey(options: ConstructorParameters<typeof SoftwareAuthenticator>[0] = {}) {
  const authenticator = new SoftwareAuthenticator(options);
  const { activity } = await apiKeyClient().createAuthenticators({
    type: "ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2",
    timestampMs: String(Date.now()),
    organizationId,
    parameters: {
      userId: rootUserId,
      authenticators: [passkeyParams(authenticator, { rpId: RP_ID, origin: ORIGIN })],
    },
  });
  expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  const { authenticatorIds } = activity.result.createAuthenticatorsResult as { authenticatorIds: string[] };
  return { authenticator, authenticatorId: authenticatorIds[0] as string };
}

function reasonOf(body: Record<string, unknown> | undefined): unknown {
  return (body?.details as { turnkeyErrorCode?: string }[] | undefined)?.[0]?.turnkeyErrorCode;
}

describe("X-Stamp-Webauthn with @turnkey/webauthn-stamper", () => {
  for (const algorithm of ["ES256", "RS256"] as const) {
    it(`authenticates queries and activities stamped by an ${algorithm} passkey`, async () => {
      const { authenticator, authenticatorId } = await registeredPasskey({ algorithm, attestation: "packed" });
      const client = passkeyClient(authenticator);
      expect(await client.getWhoami({ organizationId })).toMatchObject({ organizationId, userId: rootUserId });
      const key = p256KeyPair();
      const { activity } = await client.createApiKeys({
        type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: {
          userId: rootUserId,
          apiKeys: [
            { apiKeyName: `by passkey ${algorithm}`, publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" },
          ],
        },
      });
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(activity.votes[0]).toMatchObject({
        userId: rootUserId,
        scheme: "SIGNATURE_SCHEME_TK_WEBAUTHN",
        publicKey: authenticator.credentialIdBase64Url,
      });
      const { authenticator: stored } = await client.getAuthenticator({ organizationId, authenticatorId });
      expect(stored.credentialId).toBe(authenticator.credentialIdBase64Url);
    });
  }

  it("refuses a stamp over a tampered body, a tampered signature and an unknown credential", async () => {
    const { authenticator } = await registeredPasskey();
    const client = passkeyClient(authenticator);
    const url = `${server.baseUrl}/public/v1/query/whoami`;

    const signed = await client.stampGetWhoami({ organizationId });
    const tamperedBody = await post(url, `${signed.body} `, {
      [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue,
    });
    expect(tamperedBody.status).toBe(401);
    expect(reasonOf(tamperedBody.json)).toBe("CHALLENGE_MISMATCH");

    const fresh = await client.stampGetWhoami({ organizationId });
    const stamp = JSON.parse(fresh.stamp.stampHeaderValue) as Record<string, string>;
    const signature = Buffer.from(stamp.signature as string, "base64url");
    signature[signature.length - 1] = (signature[signature.length - 1] as number) ^ 0x01;
    const forged = JSON.stringify({ ...stamp, signature: signature.toString("base64url") });
    const tamperedSignature = await post(url, fresh.body, { "X-Stamp-Webauthn": forged });
    expect(tamperedSignature.status).toBe(401);
    expect(reasonOf(tamperedSignature.json)).toBe("SIGNATURE_INVALID");
    expect(tamperedSignature.json?.message).toBe("could not verify WebAuthN signature");

    const stranger = passkeyClient(new SoftwareAuthenticator());
    const error = await rejection(stranger.getWhoami({ organizationId }));
    expect(error.code).toBe(16);
    expect(error.message).toContain("credential ID could not be found");
  });

  it("refuses a replayed stamp and one whose counter fell behind, recording the counter after each success", async () => {
    const { authenticator } = await registeredPasskey();
    const client = passkeyClient(authenticator);
    const url = `${server.baseUrl}/public/v1/query/whoami`;
    const earlier = await client.stampGetWhoami({ organizationId });
    const later = await client.stampGetWhoami({ organizationId });
    const send = (signed: typeof earlier) =>
      post(url, signed.body, { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue });
    expect((await send(later)).status).toBe(200);
    const replayed = await send(later);
    expect(replayed.status).toBe(401);
    expect(reasonOf(replayed.json)).toBe("SIGN_COUNT_REGRESSION");
    const behind = await send(earlier);
    expect(behind.status).toBe(401);
    expect(reasonOf(behind.json)).toBe("SIGN_COUNT_REGRESSION");
    // A clone that starts again from the registered counter is refused too.
    authenticator.signCount = 0;
    expect((await rejection(client.getWhoami({ organizationId }))).code).toBe(16);
  });

  it("accepts a synced passkey whose counter stays at zero", async () => {
    const { authenticator } = await registeredPasskey({ signCountStep: 0 });
    const client = passkeyClient(authenticator);
    for (let i = 0; i < 3; i++) expect((await client.getWhoami({ organizationId })).userId).toBe(rootUserId);
  });

  it("refuses an assertion made on a page of another origin", async () => {
    const { authenticator } = await registeredPasskey();
    const error = await rejection(passkeyClient(authenticator, "https://phish.example").getWhoami({ organizationId }));
    expect(error.code).toBe(16);
    expect((error.details as { turnkeyErrorCode?: string }[])[0]?.turnkeyErrorCode).toBe("ORIGIN_NOT_ALLOWED");
  });

  it("refuses the stamps of a deleted passkey", async () => {
    const { authenticator, authenticatorId } = await registeredPasskey();
    const client = passkeyClient(authenticator);
    expect((await client.getWhoami({ organizationId })).userId).toBe(rootUserId);
    await apiKeyClient().deleteAuthenticators({
      type: "ACTIVITY_TYPE_DELETE_AUTHENTICATORS",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { userId: rootUserId, authenticatorIds: [authenticatorId] },
    });
    const error = await rejection(client.getWhoami({ organizationId }));
    expect((error.details as { turnkeyErrorCode?: string }[])[0]?.turnkeyErrorCode).toBe("CREDENTIAL_NOT_FOUND");
  });

  it("finds a sub-organization's passkey from a request naming the parent, as whoami look-ups do", async () => {
    const authenticator = new SoftwareAuthenticator();
    const { activity } = await apiKeyClient().createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        subOrganizationName: "Passkey user",
        rootUsers: [
          {
            userName: "passkey user",
            apiKeys: [],
            authenticators: [passkeyParams(authenticator, { rpId: RP_ID, origin: ORIGIN })],
            oauthProviders: [],
          },
        ],
        rootQuorumThreshold: 1,
      },
    });
    const { subOrganizationId, rootUserIds } = activity.result.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const client = passkeyClient(authenticator);
    expect(await client.getWhoami({ organizationId })).toMatchObject({
      organizationId: subOrganizationId,
      userId: rootUserIds[0],
      username: "passkey user",
    });
    const { user } = await client.getUser({ organizationId: subOrganizationId, userId: rootUserIds[0] as string });
    expect(user.authenticators[0]?.credentialId).toBe(authenticator.credentialIdBase64Url);
  });
});
