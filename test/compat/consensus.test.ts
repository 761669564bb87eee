/**
 * Consensus through the HTTP adapter with the official clients, unchanged: @turnkey/http's
 * `createActivityPoller` reports a pending activity, a second user's `approveActivity({ fingerprint })`
 * completes it and answers with its result, and `rejectActivity` makes it final.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { computeActivityFingerprint, verifyStampSignature } from "@turnkey/crypto";
import { createActivityPoller, TurnkeyActivityError, TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPolicy, type Member, organizationWithMembers, tagUsers, walletParameters } from "../support/consensus.js";
import type { ApiKeyPair } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let members: Record<"alice" | "bob" | "carol", Member>;
let rootKey: ApiKeyPair;

function client(key: ApiKeyPair) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );
}

function createWalletBody(walletName: string) {
  return {
    type: "ACTIVITY_TYPE_CREATE_WALLET" as const,
    timestampMs: String(Date.now()),
    organizationId,
    parameters: walletParameters(walletName),
  };
}

function vote(fingerprint: string) {
  return { timestampMs: String(Date.now()), organizationId, parameters: { fingerprint } };
}

async function thrown<T>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

/** Submits `walletName` as alice through the poller, which stops at CONSENSUS_NEEDED; returns the activity. */
async function pendingWallet(walletName: string) {
  const alice = client(members.alice.key);
  const poll = createActivityPoller({ client: alice, requestFn: alice.createWallet, refreshIntervalMs: 10 });
  const error = await thrown(poll(createWalletBody(walletName)), TurnkeyActivityError);
  expect(error.activityStatus).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
  expect(error.activityType).toBe("ACTIVITY_TYPE_CREATE_WALLET");
  expect(error.message).toBe(`Consensus needed for activity ${error.activityId}`);
  return (await alice.getActivity({ organizationId, activityId: error.activityId! })).activity;
}

beforeAll(async () => {
  const fixture = await organizationWithMembers(["alice", "bob", "carol"]);
  ({ organizationId, members, rootKey } = fixture);
  const ops = await tagUsers(fixture.root, organizationId, "ops", [members.alice.userId, members.bob.userId]);
  await addPolicy(fixture.root, organizationId, {
    policyName: "two ops approve wallets",
    effect: "EFFECT_ALLOW",
    condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    consensus: `approvers.filter(user, user.tags.contains('${ops}')).count() >= 2`,
  });
  server = await serve(fixture.engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("consensus with @turnkey/http", () => {
  it("reports CONSENSUS_NEEDED from the poller, and a second user's approveActivity completes it with its result", async () => {
    const pending = await pendingWallet("Ops wallet");
    expect(pending.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");

    const bob = client(members.bob.key);
    expect((await bob.getActivity({ organizationId, activityId: pending.id })).activity.canApprove).toBe(true);
    const body = { type: "ACTIVITY_TYPE_APPROVE_ACTIVITY" as const, ...vote(pending.fingerprint) };
    const signed = await bob.stampApproveActivity(body);
    const { activity } = await bob.approveActivity(body);
    expect(activity.id).toBe(pending.id);
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { walletId } = activity.result.createWalletResult!;
    expect((await bob.getWallets({ organizationId })).wallets.map((w) => w.walletId)).toContain(walletId);

    // Bob's vote carries his stamped approval body, which verifies against his key.
    const bobVote = activity.votes[1]!;
    expect(bobVote.userId).toBe(members.bob.userId);
    expect(bobVote.message).toBe(signed.body);
    expect(await verifyStampSignature(bobVote.publicKey, bobVote.signature, bobVote.message)).toBe(true);

    const evaluations = await bob.getPolicyEvaluations({ organizationId, activityId: pending.id });
    expect(evaluations.policyEvaluations.map((e) => e.policyEvaluations[0]?.outcome)).toEqual([
      "OUTCOME_REQUIRES_CONSENSUS",
      "OUTCOME_ALLOW",
    ]);
  });

  it("refuses an approval from a user no consensus counts, with a 403", async () => {
    const pending = await pendingWallet("Carol cannot");
    const carol = client(members.carol.key);
    expect((await carol.getActivity({ organizationId, activityId: pending.id })).activity.canApprove).toBe(false);
    const error = await thrown(
      carol.approveActivity({ type: "ACTIVITY_TYPE_APPROVE_ACTIVITY", ...vote(pending.fingerprint) }),
      TurnkeyRequestError,
    );
    expect(error.code).toBe(7);
    const stillPending = await client(members.alice.key).getActivity({ organizationId, activityId: pending.id });
    expect(stillPending.activity.votes).toHaveLength(1);
  });

  it("makes the activity REJECTED on rejectActivity, refuses a later approval, and the poller reports the rejection", async () => {
    const pending = await pendingWallet("Rejected wallet");
    const bob = client(members.bob.key);
    const { activity } = await bob.rejectActivity({
      type: "ACTIVITY_TYPE_REJECT_ACTIVITY",
      ...vote(pending.fingerprint),
    });
    expect(activity.id).toBe(pending.id);
    expect(activity.status).toBe("ACTIVITY_STATUS_REJECTED");

    const root = client(rootKey);
    const refused = await thrown(
      root.approveActivity({ type: "ACTIVITY_TYPE_APPROVE_ACTIVITY", ...vote(pending.fingerprint) }),
      TurnkeyRequestError,
    );
    expect(refused.code).toBe(7);
    expect(refused.message).toContain("ACTIVITY_STATUS_REJECTED");

    const poll = createActivityPoller({ client: root, requestFn: root.getActivity, refreshIntervalMs: 10 });
    const error = await thrown(poll({ organizationId, activityId: pending.id }), TurnkeyActivityError);
    expect(error.activityStatus).toBe("ACTIVITY_STATUS_REJECTED");
    expect(error.message).toContain("was rejected");
  });

  it("answers a denied submission with the hosted service's implicit deny, and records it", async () => {
    const carol = client(members.carol.key);
    const body = createWalletBody("Denied");
    const error = await thrown(carol.createWallet(body), TurnkeyRequestError);
    expect(error.code).toBe(7);
    expect(error.message).toMatch(/^Turnkey error 7: You don't have sufficient permissions to take this action\./);
    const fingerprint = computeActivityFingerprint((await carol.stampCreateWallet(body)).body);
    const { activities } = await carol.getActivities({ organizationId, filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
    expect(activities.find((activity) => activity.fingerprint === fingerprint)?.failure?.code).toBe(7);
  });
});

describe("consensus with @turnkey/sdk-server", () => {
  it("returns only the activity while pending, then the result once a second user approves", async () => {
    const sdk = (key: ApiKeyPair) =>
      new Turnkey({
        apiBaseUrl: server.baseUrl,
        apiPublicKey: key.publicKey,
        apiPrivateKey: key.privateKey,
        defaultOrganizationId: organizationId,
        activityPoller: { intervalMs: 10, numRetries: 1 },
      }).apiClient();
    const pending = await sdk(members.alice.key).createWallet(walletParameters("Via sdk-server"));
    expect(pending.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(pending).not.toHaveProperty("walletId");
    const approved = await sdk(members.bob.key).approveActivity({ fingerprint: pending.activity.fingerprint });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(approved.activity.result.createWalletResult?.walletId).toEqual(expect.any(String));
  });
});
