/**
 * Policies decided end to end through the engine: root quorum co-signing, tag-based consensus, explicit
 * deny over allow, erroring policies, the self-credential rule, votes and explanations.
 */
import { describe, expect, it } from "vitest";
import {
  addPolicy,
  organizationWithMembers,
  refusal,
  tagUsers,
  twoOfTwoRootQuorum,
  walletParameters,
} from "../support/consensus.js";
import { engineWithOrganization, p256KeyPair } from "../support/engine.js";

const WALLET_CREATE = "activity.resource == 'WALLET' && activity.action == 'CREATE'";

describe("root quorum co-signing (2 of 2)", () => {
  it("waits for the second root user, then runs the activity inside the approval and returns its result", async () => {
    const { organizationId, a, b, engine } = await twoOfTwoRootQuorum();
    const submitted = (await a.createWallet({ organizationId, parameters: walletParameters("Treasury") })).activity;
    expect(submitted.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(submitted.result).toBeNull();
    expect(submitted.canApprove).toBe(false);
    expect((await a.getWallets({ organizationId })).wallets).toEqual([]);
    expect((await b.getActivity({ organizationId, activityId: submitted.id })).activity.canApprove).toBe(true);

    const approved = (await b.approveActivity({ organizationId, parameters: { fingerprint: submitted.fingerprint } }))
      .activity;
    // The answer is the target activity, completed, with its own result member.
    expect(approved.id).toBe(submitted.id);
    expect(approved.type).toBe("ACTIVITY_TYPE_CREATE_WALLET");
    expect(approved.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(approved.votes.map((vote) => vote.selection)).toEqual([
      "VOTE_SELECTION_APPROVED",
      "VOTE_SELECTION_APPROVED",
    ]);
    expect(approved.canApprove).toBe(false);
    const { walletId } = approved.result!.createWalletResult as { walletId: string };
    expect((await a.getWallets({ organizationId })).wallets.map((wallet) => wallet.walletId)).toEqual([walletId]);

    // One decision per vote: pending on the root quorum, then allowed by it.
    const { policyEvaluations } = await a.getPolicyEvaluations({ organizationId, activityId: submitted.id });
    expect(policyEvaluations.map((e) => e.voteId)).toEqual(approved.votes.map((vote) => vote.id));
    const explanation = await engine.explainActivity(submitted.id);
    expect(explanation.decisions.map((d) => d.reason)).toEqual(["ROOT_QUORUM_PENDING", "ROOT_QUORUM"]);

    // The vote is an activity of its own, and replaying its body answers with the target again.
    const { activities } = await a.getActivities({ organizationId, filterByType: ["ACTIVITY_TYPE_APPROVE_ACTIVITY"] });
    expect(activities).toHaveLength(1);
    expect(activities[0]!.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const again = await b.approveActivity({
      organizationId,
      timestampMs: JSON.parse(activities[0]!.votes[0]!.message).timestampMs,
      parameters: { fingerprint: submitted.fingerprint },
    });
    expect(again.activity.id).toBe(submitted.id);
    expect(again.activity.votes).toHaveLength(2);
  });

  it("co-signs a raw payload", async () => {
    const { organizationId, a, b } = await twoOfTwoRootQuorum();
    const pendingWallet = (await a.createWallet({ organizationId, parameters: walletParameters("Signer") })).activity;
    const wallet = (await b.approveActivity({ organizationId, parameters: { fingerprint: pendingWallet.fingerprint } }))
      .activity;
    const [address] = (wallet.result!.createWalletResult as { addresses: string[] }).addresses;
    const pending = (
      await a.signRawPayload({
        organizationId,
        parameters: {
          signWith: address!,
          payload: `0x${"ab".repeat(32)}`,
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        },
      })
    ).activity;
    expect(pending.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const signed = (await b.approveActivity({ organizationId, parameters: { fingerprint: pending.fingerprint } }))
      .activity;
    expect(signed.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(signed.result!.signRawPayloadResult).toMatchObject({ r: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("refuses a second vote from the same user and a vote on an unknown fingerprint", async () => {
    const { organizationId, a } = await twoOfTwoRootQuorum();
    const { activity } = await a.createWallet({ organizationId, parameters: walletParameters("W") });
    await refusal(
      a.approveActivity({ organizationId, parameters: { fingerprint: activity.fingerprint } }),
      "PERMISSION_DENIED",
      "ALREADY_VOTED",
    );
    const unknown = await refusal(
      a.approveActivity({ organizationId, parameters: { fingerprint: `sha256:${"0".repeat(64)}` } }),
      "NOT_FOUND",
      "ACTIVITY_NOT_FOUND",
    );
    expect(unknown.details.field).toBe("parameters.fingerprint");
    const { activity: after } = await a.getActivity({ organizationId, activityId: activity.id });
    expect(after.votes).toHaveLength(1);
    expect((await a.getActivities({ organizationId })).activities).toHaveLength(1);
  });
});

describe("a tag-based consensus of two approvers", () => {
  async function setup() {
    const fixture = await organizationWithMembers(["alice", "bob", "carol"]);
    const { root, organizationId, members } = fixture;
    const ops = await tagUsers(root, organizationId, "ops", [members.alice.userId, members.bob.userId]);
    const policyId = await addPolicy(root, organizationId, {
      policyName: "two ops approve wallets",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: `approvers.filter(user, user.tags.contains('${ops}')).count() >= 2`,
    });
    return { ...fixture, ops, policyId };
  }

  it("waits for a second tagged approver, refuses an untagged one, and completes on the tagged vote", async () => {
    const { organizationId, members, policyId, engine, root } = await setup();
    const { alice, bob, carol } = members;
    const submitted = (await alice.as.createWallet({ organizationId, parameters: walletParameters("Ops") })).activity;
    expect(submitted.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");

    expect((await carol.as.getActivity({ organizationId, activityId: submitted.id })).activity.canApprove).toBe(false);
    expect((await bob.as.getActivity({ organizationId, activityId: submitted.id })).activity.canApprove).toBe(true);
    // A root user can always vote: the root quorum counts them.
    expect((await root.getActivity({ organizationId, activityId: submitted.id })).activity.canReject).toBe(true);

    const refused = await refusal(
      carol.as.approveActivity({ organizationId, parameters: { fingerprint: submitted.fingerprint } }),
      "PERMISSION_DENIED",
      "VOTER_NOT_COUNTED",
    );
    expect(refused.details.field).toBe("parameters.fingerprint");
    const unchanged = (await alice.as.getActivity({ organizationId, activityId: submitted.id })).activity;
    expect(unchanged.votes).toHaveLength(1);
    expect(unchanged.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");

    const done = (await bob.as.approveActivity({ organizationId, parameters: { fingerprint: submitted.fingerprint } }))
      .activity;
    expect(done.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(done.result!.createWalletResult).toMatchObject({ addresses: [expect.stringMatching(/^0x/)] });

    const { policyEvaluations } = await root.getPolicyEvaluations({ organizationId, activityId: submitted.id });
    expect(policyEvaluations.map((e) => e.policyEvaluations)).toEqual([
      [{ policyId, outcome: "OUTCOME_REQUIRES_CONSENSUS" }],
      [{ policyId, outcome: "OUTCOME_ALLOW" }],
    ]);
    const explanation = await engine.explainActivity(submitted.id);
    expect(explanation.decisions[0]).toMatchObject({
      outcome: "CONSENSUS_NEEDED",
      reason: "CONSENSUS_PENDING",
      waitingOn: [{ policyId }],
    });
    expect(explanation.decisions[1]).toMatchObject({ outcome: "ALLOW", reason: "POLICY_ALLOW", userId: bob.userId });
  });

  it("denies a submitter no clause of the consensus can count, and records the denial", async () => {
    const { organizationId, members, engine } = await setup();
    const error = await refusal(
      members.carol.as.createWallet({ organizationId, parameters: walletParameters("Nope") }),
      "PERMISSION_DENIED",
      "POLICY_DENIED",
    );
    expect(error.details.decision).toBe("IMPLICIT_DENY");
    const activityId = error.details.activityId as string;
    expect(error.message).toMatch(/^You don't have sufficient permissions to take this action\./);
    const { activity } = await members.carol.as.getActivity({ organizationId, activityId });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(activity.failure).toMatchObject({ code: 7 });
    expect((await engine.explainActivity(activityId)).decisions[0]!.outcome).toBe("DENY");
  });

  it("makes the activity REJECTED when a tagged user rejects, and refuses every later vote", async () => {
    const { organizationId, members, root, policyId } = await setup();
    const submitted = (await members.alice.as.createWallet({ organizationId, parameters: walletParameters("R") }))
      .activity;
    const rejected = (
      await members.bob.as.rejectActivity({ organizationId, parameters: { fingerprint: submitted.fingerprint } })
    ).activity;
    expect(rejected.id).toBe(submitted.id);
    expect(rejected.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect(rejected.result).toBeNull();
    expect(rejected.votes.map((vote) => vote.selection)).toEqual([
      "VOTE_SELECTION_APPROVED",
      "VOTE_SELECTION_REJECTED",
    ]);
    expect(rejected.canApprove).toBe(false);

    await refusal(
      root.approveActivity({ organizationId, parameters: { fingerprint: submitted.fingerprint } }),
      "PERMISSION_DENIED",
      "ACTIVITY_NOT_PENDING",
    );
    expect((await root.getWallets({ organizationId })).wallets).toEqual([]);
    const { policyEvaluations } = await root.getPolicyEvaluations({ organizationId, activityId: submitted.id });
    expect(policyEvaluations[1]!.policyEvaluations).toEqual([{ policyId, outcome: "OUTCOME_REJECTED" }]);
  });

  it("refuses a rejection from a user no consensus counts", async () => {
    const { organizationId, members } = await setup();
    const submitted = (await members.alice.as.createWallet({ organizationId, parameters: walletParameters("X") }))
      .activity;
    await refusal(
      members.carol.as.rejectActivity({ organizationId, parameters: { fingerprint: submitted.fingerprint } }),
      "PERMISSION_DENIED",
      "VOTER_NOT_COUNTED",
    );
    const { activity } = await members.alice.as.getActivity({ organizationId, activityId: submitted.id });
    expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
  });
});

describe("the decision order", () => {
  it("lets an explicit deny win over an allow, but not over the root quorum", async () => {
    const { root, organizationId, members, engine } = await organizationWithMembers(["alice"]);
    const { alice } = members;
    const allowId = await addPolicy(root, organizationId, {
      policyName: "wallets",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'WALLET'",
    });
    expect((await alice.as.createWallet({ organizationId, parameters: walletParameters("ok") })).activity.status).toBe(
      "ACTIVITY_STATUS_COMPLETED",
    );
    const denyId = await addPolicy(root, organizationId, {
      policyName: "no new wallets",
      effect: "EFFECT_DENY",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'",
    });
    const error = await refusal(
      alice.as.createWallet({ organizationId, parameters: walletParameters("denied") }),
      "PERMISSION_DENIED",
      "POLICY_DENIED",
    );
    expect(error.details.decision).toBe("EXPLICIT_DENY");
    expect(error.details.evaluations).toEqual([
      { policyId: denyId, policyName: "no new wallets", effect: "EFFECT_DENY", outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);
    expect(error.message).toBe("policy engine denied request explicitly");
    const activityId = error.details.activityId as string;
    expect((await engine.explainActivity(activityId)).decisions[0]!.evaluations.map((e) => e.outcome)).toEqual([
      "OUTCOME_ALLOW",
      "OUTCOME_DENY_EXPLICIT",
    ]);
    expect((await root.getWallets({ organizationId })).wallets.map((w) => w.walletName)).toEqual(["ok"]);
    // The root quorum skips the policies altogether.
    const byRoot = await root.createWallet({ organizationId, parameters: walletParameters("root's") });
    expect(byRoot.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    void allowId;
  });

  it("never allows nor denies with a policy whose expression fails, and explains the failure", async () => {
    const { root, organizationId, members, engine } = await organizationWithMembers(["alice"]);
    // A create_wallet request has no `wallet` keyword, so this condition always fails (no short-circuit).
    const erroring = await addPolicy(root, organizationId, {
      policyName: "wallet or resource",
      effect: "EFFECT_ALLOW",
      condition: "wallet.id == 'w' || activity.resource == 'WALLET'",
    });
    const error = await refusal(
      members.alice.as.createWallet({ organizationId, parameters: walletParameters("e") }),
      "PERMISSION_DENIED",
    );
    expect(error.details.decision).toBe("IMPLICIT_DENY");
    expect(error.details.evaluations).toEqual([
      expect.objectContaining({
        policyId: erroring,
        outcome: "OUTCOME_ERROR",
        error: expect.objectContaining({ field: "condition" }),
      }),
    ]);
    const explanation = await engine.explainActivity(error.details.activityId as string);
    expect(explanation.decisions[0]!.summary).toContain("wallet or resource");
    expect(explanation.decisions[0]!.evaluations[0]!.error!.message).toMatch(/wallet/);

    // An erroring DENY does not deny either.
    await addPolicy(root, organizationId, {
      policyName: "erroring deny",
      effect: "EFFECT_DENY",
      condition: "wallet.id == 'w'",
    });
    await addPolicy(root, organizationId, { policyName: "wallets", effect: "EFFECT_ALLOW", condition: WALLET_CREATE });
    const { activity } = await members.alice.as.createWallet({ organizationId, parameters: walletParameters("f") });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { policyEvaluations } = await root.getPolicyEvaluations({ organizationId, activityId: activity.id });
    expect(policyEvaluations[0]!.policyEvaluations.map((e) => e.outcome)).toEqual([
      "OUTCOME_ERROR",
      "OUTCOME_ERROR",
      "OUTCOME_ALLOW",
    ]);
  });

  it("lets users manage their own credentials unless a policy decides", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice", "bob"]);
    const { alice, bob } = members;
    const apiKeys = () => [
      { apiKeyName: "extra", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" as const },
    ];
    const own = await alice.as.createApiKeys({
      organizationId,
      parameters: { userId: alice.userId, apiKeys: apiKeys() },
    });
    expect(own.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const someoneElse = await refusal(
      alice.as.createApiKeys({ organizationId, parameters: { userId: bob.userId, apiKeys: apiKeys() } }),
      "PERMISSION_DENIED",
    );
    expect(someoneElse.details.decision).toBe("IMPLICIT_DENY");

    // A matching ALLOW that still waits for a human overrides the default...
    const tag = await tagUsers(root, organizationId, "security", [bob.userId]);
    await addPolicy(root, organizationId, {
      policyName: "credentials need security",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'CREDENTIAL'",
      consensus: `approvers.any(user, user.id == '${alice.userId}') && approvers.any(user, user.tags.contains('${tag}'))`,
    });
    const pending = await alice.as.createApiKeys({
      organizationId,
      parameters: { userId: alice.userId, apiKeys: apiKeys() },
    });
    expect(pending.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const approved = await bob.as.approveActivity({
      organizationId,
      parameters: { fingerprint: pending.activity.fingerprint },
    });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(approved.activity.result!.createApiKeysResult).toMatchObject({ apiKeyIds: [expect.any(String)] });

    // ...and an explicit deny removes it.
    await addPolicy(root, organizationId, {
      policyName: "no new keys",
      effect: "EFFECT_DENY",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_API_KEYS_V2'",
    });
    const denied = await refusal(
      alice.as.createApiKeys({ organizationId, parameters: { userId: alice.userId, apiKeys: apiKeys() } }),
      "PERMISSION_DENIED",
    );
    expect(denied.details.decision).toBe("EXPLICIT_DENY");
  });

  it("keeps root-quorum-only activities for the root quorum, whatever the policies say", async () => {
    const { root, organizationId, members, rootUserId } = await organizationWithMembers(["alice"]);
    await addPolicy(root, organizationId, { policyName: "anything", effect: "EFFECT_ALLOW", condition: "true" });
    const parameters = { threshold: 1, userIds: [members.alice.userId] };
    const error = await refusal(members.alice.as.updateRootQuorum({ organizationId, parameters }), "PERMISSION_DENIED");
    expect(error.details.decision).toBe("ROOT_QUORUM_REQUIRED");
    const both = { threshold: 2, userIds: [rootUserId, members.alice.userId] };
    expect((await root.updateRootQuorum({ organizationId, parameters: both })).activity.status).toBe(
      "ACTIVITY_STATUS_COMPLETED",
    );
    expect((await root.getOrganization({ organizationId })).organizationData.rootQuorum).toEqual(both);

    // Now both root users must approve, and a policy cannot stand in for the second one.
    const pending = (
      await root.updateRootQuorum({ organizationId, parameters: { threshold: 1, userIds: [rootUserId] } })
    ).activity;
    expect(pending.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const done = await members.alice.as.approveActivity({
      organizationId,
      parameters: { fingerprint: pending.fingerprint },
    });
    expect(done.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await root.getOrganization({ organizationId })).organizationData.rootQuorum).toEqual({
      threshold: 1,
      userIds: [rootUserId],
    });
  });

  it("refuses root quorums that cannot work, naming the field", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    await refusal(
      root.updateRootQuorum({ organizationId, parameters: { threshold: 2, userIds: [rootUserId] } }),
      "INVALID_ARGUMENT",
    );
    const unknown = await refusal(
      root.updateRootQuorum({ organizationId, parameters: { threshold: 1, userIds: [rootUserId, "nobody"] } }),
      "NOT_FOUND",
    );
    expect(unknown.details.field).toBe("parameters.userIds[1]");
    const twice = await refusal(
      root.updateRootQuorum({ organizationId, parameters: { threshold: 1, userIds: [rootUserId, rootUserId] } }),
      "INVALID_ARGUMENT",
    );
    expect(twice.details.field).toBe("parameters.userIds[1]");
  });
});

describe("what an approval runs into", () => {
  it("records the target FAILED, with the vote, when its handler fails at approval time", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice", "bob"]);
    await addPolicy(root, organizationId, {
      policyName: "two approve",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: "approvers.count() >= 2",
    });
    const pending = (await members.alice.as.createWallet({ organizationId, parameters: walletParameters("Same") }))
      .activity;
    // Meanwhile the root user takes the name.
    await root.createWallet({ organizationId, parameters: walletParameters("Same") });
    const answer = (
      await members.bob.as.approveActivity({ organizationId, parameters: { fingerprint: pending.fingerprint } })
    ).activity;
    expect(answer.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(answer.failure).toMatchObject({ code: 6 });
    expect(answer.votes).toHaveLength(2);
    expect((await root.getWallets({ organizationId })).wallets).toHaveLength(1);
  });

  it("fails the target when a deny policy added meanwhile applies at the approving vote", async () => {
    const { root, organizationId, members, engine } = await organizationWithMembers(["alice", "bob"]);
    await addPolicy(root, organizationId, {
      policyName: "two approve",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: "approvers.count() >= 2",
    });
    const pending = (await members.alice.as.createWallet({ organizationId, parameters: walletParameters("Late") }))
      .activity;
    await addPolicy(root, organizationId, { policyName: "freeze", effect: "EFFECT_DENY", condition: WALLET_CREATE });
    const answer = (
      await members.bob.as.approveActivity({ organizationId, parameters: { fingerprint: pending.fingerprint } })
    ).activity;
    expect(answer.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(answer.failure).toEqual({ code: 7, message: "policy engine denied request explicitly", details: [] });
    const { decisions } = await engine.explainActivity(pending.id);
    expect(decisions.at(-1)).toMatchObject({ outcome: "DENY", reason: "EXPLICIT_DENY" });
    expect(decisions.at(-1)?.summary).toContain("freeze");
    expect((await root.getWallets({ organizationId })).wallets).toEqual([]);
  });

  it("does not let a user of another organization vote", async () => {
    const { root, organizationId, members, engine } = await organizationWithMembers(["alice"]);
    await addPolicy(root, organizationId, {
      policyName: "two approve",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: "approvers.count() >= 2",
    });
    const pending = (await members.alice.as.createWallet({ organizationId, parameters: walletParameters("Mine") }))
      .activity;
    const other = await engine.createOrganization({
      organizationName: "Other",
      rootUsers: [{ userName: "outsider", apiKeys: [] }],
    });
    const outsider = engine.as({ userId: other.rootUserIds[0]! });
    await refusal(
      outsider.approveActivity({ organizationId, parameters: { fingerprint: pending.fingerprint } }),
      "INVALID_ARGUMENT",
      "ORGANIZATION_MISMATCH",
    );
    await refusal(
      outsider.approveActivity({
        organizationId: other.organizationId,
        parameters: { fingerprint: pending.fingerprint },
      }),
      "NOT_FOUND",
      "ACTIVITY_NOT_FOUND",
    );
    const { activity } = await root.getActivity({ organizationId, activityId: pending.id });
    expect(activity.votes).toHaveLength(1);
  });
});
