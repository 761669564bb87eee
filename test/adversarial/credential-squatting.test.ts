/**
 * Credential squatting across sibling sub-organizations: a sub-organization that registers a sibling's API
 * public key, or the parent root's, changes nothing about who that key is for the organizations that
 * already held it. Driven by the official clients over HTTP.
 */

import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let parentId: string;
let parentRootUserId: string;
let parentKey: ApiKeyPair;
const subs: Record<"a" | "b", { id: string; key: ApiKeyPair; rootUserId: string }> = {} as never;

const clientFor = (key: ApiKeyPair) =>
  new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );

/** Registers `publicKey` on the root user of sub-organization `sub`, stamped by that sub-organization. */
async function register(sub: "a" | "b", publicKey: string) {
  const { id, key, rootUserId } = subs[sub];
  const { activity } = await clientFor(key).createApiKeys({
    type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
    timestampMs: String(Date.now()),
    organizationId: id,
    parameters: { userId: rootUserId, apiKeys: [{ apiKeyName: "copied", publicKey, curveType: "API_KEY_CURVE_P256" }] },
  });
  expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
}

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  parentId = fixture.organizationId;
  parentRootUserId = fixture.rootUserId;
  parentKey = fixture.rootKey;
  for (const name of ["a", "b"] as const) {
    const key = p256KeyPair();
    const { activity } = await fixture.root.createSubOrganization({
      organizationId: parentId,
      parameters: subOrganizationParameters(name, key),
    });
    const result = activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    subs[name] = { id: result.subOrganizationId, key, rootUserId: result.rootUserIds[0] as string };
  }
  server = await serve(fixture.engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("credential squatting", () => {
  it("keeps a sub-organization's key its own after a sibling registers it", async () => {
    await register("a", subs.b.key.publicKey);
    const b = clientFor(subs.b.key);
    const whoami = await b.getWhoami({ organizationId: parentId });
    expect([whoami.organizationId, whoami.userId]).toEqual([subs.b.id, subs.b.rootUserId]);
    const { activity } = await b.createReadWriteSession({
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
      timestampMs: String(Date.now()),
      organizationId: parentId,
      parameters: { targetPublicKey: generateP256KeyPair().publicKeyUncompressed },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((activity.result.createReadWriteSessionResultV2 as { userId: string }).userId).toBe(subs.b.rootUserId);
    // And naming its own organization, nothing changed either.
    expect((await b.getWhoami({ organizationId: subs.b.id })).userId).toBe(subs.b.rootUserId);
  });

  it("keeps the parent root's key the parent root's after a sub-organization registers it", async () => {
    await register("b", parentKey.publicKey);
    const parent = clientFor(parentKey);
    const whoami = await parent.getWhoami({ organizationId: parentId });
    expect([whoami.organizationId, whoami.userId]).toEqual([parentId, parentRootUserId]);
    const wallet = await parent.createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId: parentId,
      parameters: { walletName: "still mine", accounts: [] },
    });
    expect(wallet.activity.organizationId).toBe(parentId);
    expect(wallet.activity.votes[0]?.userId).toBe(parentRootUserId);
    // Naming the sub-organization that registered it, the key is that organization's user there (the
    // hosted service's rule: the named organization's own credential first).
    expect((await parent.getWhoami({ organizationId: subs.b.id })).userId).toBe(subs.b.rootUserId);
  });
});
