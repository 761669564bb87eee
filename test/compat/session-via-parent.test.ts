/**
 * sdk-browser's session log-in knows only the parent organization's id: a sub-organization's credential
 * asks for a read-write session naming the parent, and gets one in its own sub-organization.
 */

import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { decryptCredentialBundle, generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let parentId: string;
let childId: string;
let childKey: ApiKeyPair;

const clientFor = (key: ApiKeyPair) =>
  new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  parentId = fixture.organizationId;
  childKey = p256KeyPair();
  const { activity } = await fixture.root.createSubOrganization({
    organizationId: parentId,
    parameters: subOrganizationParameters("Child", childKey),
  });
  childId = (activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string }).subOrganizationId;
  server = await serve(fixture.engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("create_read_write_session through the parent", () => {
  it("makes the session in the credential's own sub-organization", async () => {
    const target = generateP256KeyPair();
    const { activity } = await clientFor(childKey).createReadWriteSession({
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
      timestampMs: String(Date.now()),
      organizationId: parentId,
      parameters: { targetPublicKey: target.publicKeyUncompressed },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.organizationId).toBe(childId);
    const result = activity.result.createReadWriteSessionResultV2 as {
      organizationId: string;
      username: string;
      credentialBundle: string;
    };
    expect(result.organizationId).toBe(childId);
    expect(result.username).toBe("Child root");
    const sessionSecret = decryptCredentialBundle(result.credentialBundle, target.privateKey);
    const session = {
      publicKey: bytesToHex(p256.getPublicKey(Buffer.from(sessionSecret, "hex"), true)),
      privateKey: sessionSecret,
    };
    // The session key then answers whoami through the parent, as the browser SDK calls it.
    expect((await clientFor(session).getWhoami({ organizationId: parentId })).organizationId).toBe(childId);
  });

  it("still refuses other activities naming the parent", async () => {
    const error = await clientFor(childKey)
      .createWallet({
        type: "ACTIVITY_TYPE_CREATE_WALLET",
        timestampMs: String(Date.now()),
        organizationId: parentId,
        parameters: { walletName: "nope", accounts: [] },
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TurnkeyRequestError);
    // An organization mismatch on a write: 400 (code 3), as the hosted service answers it.
    expect((error as TurnkeyRequestError).code).toBe(3);
    expect((error as TurnkeyRequestError).message).toMatch(/^Turnkey error 3: organization mismatch/);
  });
});
