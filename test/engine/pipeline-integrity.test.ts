/**
 * Integrity of the pipeline under interleaving: one body gives one activity and one answer, a credential
 * revoked after its stamp was checked cannot act, a deleted submitter does not strand a pending activity,
 * and a copied body does not read another organization's result.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { describe, expect, it } from "vitest";
import { CustodyEngine, CustodyError, operationByUrlPath } from "../../src/index.js";
import { KeyCache } from "../../src/keys/key-cache.js";
import { addPolicy, organizationWithMembers, walletParameters } from "../support/consensus.js";
import { engineWithOrganization, p256KeyPair } from "../support/engine.js";

async function rejectionOf(promise: Promise<unknown>): Promise<CustodyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  return error as CustodyError;
}

describe("pipeline integrity", () => {
  it("gives one body one activity and one answer, even when another write interleaves", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createWallet({ organizationId, parameters: walletParameters("w") });
    const { walletId } = activity.result!.createWalletResult as { walletId: string };
    const body = { organizationId, timestampMs: String(Date.now()), parameters: walletParameters("w") };
    // A fails (the name is taken), a rename frees the name meanwhile, then B repeats A's exact body.
    const [a, , b] = await Promise.allSettled([
      root.createWallet(body),
      root.updateWallet({ organizationId, parameters: { walletId, walletName: "w2" } }),
      root.createWallet(body),
    ]);
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("rejected");
    const [ea, eb] = [
      (a as PromiseRejectedResult).reason as CustodyError,
      (b as PromiseRejectedResult).reason as CustodyError,
    ];
    expect(eb.details.activityId).toBe(ea.details.activityId);
    expect(eb.code).toBe(ea.code);
    expect((await root.getWallets({ organizationId })).wallets.map((w) => w.walletName)).toEqual(["w2"]);
  });

  it("refuses a stamp whose API key was deleted between authentication and execution", async () => {
    const { engine, root, organizationId, rootUserId } = await engineWithOrganization();
    const spare = p256KeyPair();
    const added = await root.createApiKeys({
      organizationId,
      parameters: {
        userId: rootUserId,
        apiKeys: [{ apiKeyName: "spare", publicKey: spare.publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    });
    const [apiKeyId] = (added.activity.result!.createApiKeysResult as { apiKeyIds: string[] }).apiKeyIds;
    const bodyText = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: walletParameters("late"),
    });
    const { stampHeaderValue } = await new ApiKeyStamper({
      apiPublicKey: spare.publicKey,
      apiPrivateKey: spare.privateKey,
    }).stamp(bodyText);
    const principal = await engine.authenticate({
      stamps: { apiKey: stampHeaderValue },
      body: new TextEncoder().encode(bodyText),
      organizationId,
    });
    await root.deleteApiKeys({ organizationId, parameters: { userId: rootUserId, apiKeyIds: [apiKeyId!] } });
    const operation = operationByUrlPath("/public/v1/submit/create_wallet")!;
    const error = await rejectionOf(engine.execute({ operation, bodyText, body: JSON.parse(bodyText), principal }));
    expect(error.code).toBe("UNAUTHENTICATED");
    expect(error.details.reason).toBe("PUBLIC_KEY_NOT_FOUND");
    expect((await root.getWallets({ organizationId })).wallets).toEqual([]);
  });

  it("settles a pending activity whose submitter was deleted: a rejection ends it, an approval fails it", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice", "bob"]);
    await addPolicy(root, organizationId, {
      policyName: "two for wallets",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'WALLET'",
      consensus: "approvers.count() >= 2",
    });
    const pending = async (name: string) => {
      const { activity } = await members.alice.as.createWallet({ organizationId, parameters: walletParameters(name) });
      expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      return activity;
    };
    const first = await pending("one");
    const second = await pending("two");
    await root.deleteUsers({ organizationId, parameters: { userIds: [members.alice.userId] } });

    const rejected = await members.bob.as.rejectActivity({
      organizationId,
      parameters: { fingerprint: first.fingerprint },
    });
    expect(rejected.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    const approved = await members.bob.as.approveActivity({
      organizationId,
      parameters: { fingerprint: second.fingerprint },
    });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(approved.activity.failure?.message).toMatch(/submitter/);
    expect((await root.getWallets({ organizationId })).wallets).toEqual([]);
  });

  it("does not run a pending activity whose submitting key was deleted meanwhile", async () => {
    const { engine, root, organizationId, members } = await organizationWithMembers(["alice", "bob"]);
    await addPolicy(root, organizationId, {
      policyName: "two for wallets",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'WALLET'",
      consensus: "approvers.count() >= 2",
    });
    // Alice submits over HTTP-style authentication, so her vote carries her API key.
    const bodyText = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: walletParameters("queued"),
    });
    const { stampHeaderValue } = await new ApiKeyStamper({
      apiPublicKey: members.alice.key.publicKey,
      apiPrivateKey: members.alice.key.privateKey,
    }).stamp(bodyText);
    const principal = await engine.authenticate({
      stamps: { apiKey: stampHeaderValue },
      body: new TextEncoder().encode(bodyText),
      organizationId,
    });
    const operation = operationByUrlPath("/public/v1/submit/create_wallet")!;
    const { activity } = (await engine.execute({ operation, bodyText, body: JSON.parse(bodyText), principal })) as {
      activity: { status: string; fingerprint: string };
    };
    expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const { apiKeys } = await root.getApiKeys({ organizationId, userId: members.alice.userId });
    await root.deleteApiKeys({
      organizationId,
      parameters: { userId: members.alice.userId, apiKeyIds: apiKeys.map((k) => k.apiKeyId) },
    });

    const approved = await members.bob.as.approveActivity({
      organizationId,
      parameters: { fingerprint: activity.fingerprint },
    });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect((await root.getWallets({ organizationId })).wallets).toEqual([]);
  });

  it("does not answer a copied body to a principal of another organization", async () => {
    const engine = new CustodyEngine();
    const bootstrap = async (name: string) => {
      const { organizationId, rootUserIds } = await engine.createOrganization({
        organizationName: name,
        rootUsers: [
          {
            userName: "root",
            apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
          },
        ],
      });
      return { organizationId, root: engine.as({ userId: rootUserIds[0]! }) };
    };
    const a = await bootstrap("A");
    const b = await bootstrap("B");
    const body = {
      organizationId: a.organizationId,
      timestampMs: String(Date.now()),
      parameters: walletParameters("mine"),
    };
    await a.root.createWallet(body);
    const error = await rejectionOf(b.root.createWallet(body));
    expect(error.code).toBe("PERMISSION_DENIED");
    expect(JSON.stringify(error.toRpcStatus())).not.toContain("createWalletResult");
  });
});

describe("key cache", () => {
  it("shares one load between concurrent misses, so no caller holds wiped key bytes", async () => {
    const cache = new KeyCache();
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Uint8Array(32).fill(7);
    };
    const [x, y] = await Promise.all([cache.wallet("w", load), cache.wallet("w", load)]);
    expect(loads).toBe(1);
    expect(x).toBe(y);
    expect(x.seed.every((byte) => byte === 7)).toBe(true);
  });
});
