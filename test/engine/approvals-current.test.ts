/**
 * Votes are counted against the current users and the current policies at every decision (issue #20.3):
 * a deleted approver's vote no longer counts, and whether a vote can count is judged by the policies in
 * force when it is cast, not by the consensus an earlier decision left open.
 */
import { describe, expect, it } from "vitest";
import { addPolicy, organizationWithMembers, refusal, walletParameters } from "../support/consensus.js";

const WALLET_CREATE = "activity.resource == 'WALLET' && activity.action == 'CREATE'";

describe("votes that should not count", () => {
  it("does not count a deleted approver's vote in approvers.count()", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice", "bob", "carol", "dave"]);
    await addPolicy(root, organizationId, {
      policyName: "three approve",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: "approvers.count() >= 3",
    });
    const { fingerprint, id } = (
      await members.alice.as.createWallet({ organizationId, parameters: walletParameters("Three") })
    ).activity;
    const vote = { organizationId, parameters: { fingerprint } };
    expect((await members.bob.as.approveActivity(vote)).activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    await root.deleteUsers({ organizationId, parameters: { userIds: [members.bob.userId] } });

    // alice and carol: two approvers that still exist, though three votes were cast.
    expect((await members.carol.as.approveActivity(vote)).activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect((await root.getWallets({ organizationId })).wallets).toEqual([]);
    const approved = await members.dave.as.approveActivity(vote);
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(approved.activity.id).toBe(id);
  });

  it("does not count a deleted approver's credential in credentials.count()", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice", "bob", "carol", "dave"]);
    await addPolicy(root, organizationId, {
      policyName: "three keys approve",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: "credentials.count() >= 3",
    });
    const { fingerprint } = (
      await members.alice.as.createWallet({ organizationId, parameters: walletParameters("Keys") })
    ).activity;
    const vote = { organizationId, parameters: { fingerprint } };
    await members.bob.as.approveActivity(vote);
    await root.deleteUsers({ organizationId, parameters: { userIds: [members.bob.userId] } });
    expect((await members.carol.as.approveActivity(vote)).activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect((await members.dave.as.approveActivity(vote)).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("judges who may vote by the policies in force now, not the consensus the submission left open", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice", "bob", "carol"]);
    const bobsPolicy = await addPolicy(root, organizationId, {
      policyName: "bob approves",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: `approvers.any(user, user.id == '${members.alice.userId}') && approvers.any(user, user.id == '${members.bob.userId}')`,
    });
    const { fingerprint } = (
      await members.alice.as.createWallet({ organizationId, parameters: walletParameters("Handover") })
    ).activity;
    // The organization hands the approval over to carol while the activity waits.
    await root.deletePolicy({ organizationId, parameters: { policyId: bobsPolicy } });
    await addPolicy(root, organizationId, {
      policyName: "carol approves",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: `approvers.any(user, user.id == '${members.alice.userId}') && approvers.any(user, user.id == '${members.carol.userId}')`,
    });
    const vote = { organizationId, parameters: { fingerprint } };
    await refusal(members.bob.as.approveActivity(vote), "PERMISSION_DENIED", "VOTER_NOT_COUNTED");
    const approved = await members.carol.as.approveActivity(vote);
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await root.getWallets({ organizationId })).wallets.map((w) => w.walletName)).toEqual(["Handover"]);
  });

  it("shows canApprove by the policies in force now", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice", "bob", "carol"]);
    const bobsPolicy = await addPolicy(root, organizationId, {
      policyName: "bob approves",
      effect: "EFFECT_ALLOW",
      condition: WALLET_CREATE,
      consensus: `approvers.any(user, user.id == '${members.alice.userId}') && approvers.any(user, user.id == '${members.bob.userId}')`,
    });
    const { id } = (await members.alice.as.createWallet({ organizationId, parameters: walletParameters("Shown") }))
      .activity;
    const canApprove = async (member: typeof members.bob) =>
      (await member.as.getActivity({ organizationId, activityId: id })).activity.canApprove;
    expect([await canApprove(members.bob), await canApprove(members.carol)]).toEqual([true, false]);
    await root.updatePolicy({
      organizationId,
      parameters: {
        policyId: bobsPolicy,
        policyConsensus: `approvers.any(user, user.id == '${members.alice.userId}') && approvers.any(user, user.id == '${members.carol.userId}')`,
      },
    });
    expect([await canApprove(members.bob), await canApprove(members.carol)]).toEqual([false, true]);
  });
});
