/**
 * The 24-hour consensus window, through the HTTP adapter with @turnkey/http, on the engine's injected clock.
 * The hosted service documents it (developer-reference/api-overview/submissions): "Activities do not
 * expire but approvals (votes) do. When an activity is submitted, the requester's submission counts as the
 * first approval, which starts a 24-hour window. If consensus is not reached within that window, existing
 * approvals expire and must be re-submitted while the activity remains in ACTIVITY_STATUS_CONSENSUS_NEEDED."
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { addPolicy, type Member, organizationWithMembers, walletParameters } from "../support/consensus.js";
import { type RunningServer, serve } from "../support/server.js";

const HOUR = 60 * 60 * 1000;
let now = Date.UTC(2026, 0, 1, 9);
let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let members: Record<"alice" | "bob" | "carol", Member>;

function client(member: Member) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: member.key.publicKey, apiPrivateKey: member.key.privateKey }),
  );
}

beforeAll(async () => {
  const fixture = await organizationWithMembers(["alice", "bob", "carol"], { clock: () => now });
  ({ engine, organizationId, members } = fixture);
  await addPolicy(fixture.root, organizationId, {
    policyName: "three approve wallets",
    effect: "EFFECT_ALLOW",
    condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    consensus: "approvers.count() >= 3",
  });
  server = await serve(engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

async function submit(walletName: string) {
  const { activity } = await client(members.alice).createWallet({
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    timestampMs: String(now),
    organizationId,
    parameters: walletParameters(walletName),
  });
  expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
  return activity;
}

async function approve(member: Member, fingerprint: string) {
  const { activity } = await client(member).approveActivity({
    type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
    timestampMs: String(now),
    organizationId,
    parameters: { fingerprint },
  });
  return activity;
}

async function walletNames() {
  return (await client(members.alice).getWallets({ organizationId })).wallets.map((w) => w.walletName);
}

describe("the consensus window", () => {
  it("completes when the approvals all fall within 24 hours of the submission", async () => {
    const pending = await submit("in time");
    now += 12 * HOUR;
    expect((await approve(members.bob, pending.fingerprint)).status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    now += 11 * HOUR;
    expect((await approve(members.carol, pending.fingerprint)).status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(await walletNames()).toContain("in time");
  });

  it("lets approvals expire after 24 hours: they no longer count, and must be cast again", async () => {
    const pending = await submit("late");
    now += 12 * HOUR;
    await approve(members.bob, pending.fingerprint);
    now += 13 * HOUR; // 25 hours after the submission: alice's and bob's approvals have expired.

    // carol's approval would have been the third; it opens a new window instead.
    const afterExpiry = await approve(members.carol, pending.fingerprint);
    expect(afterExpiry.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(await walletNames()).not.toContain("late");
    // The votes stay on the record; whose vote expired may vote again.
    expect(afterExpiry.votes.map((vote) => vote.userId)).toEqual([
      members.alice.userId,
      members.bob.userId,
      members.carol.userId,
    ]);
    const read = async (member: Member) =>
      (await client(member).getActivity({ organizationId, activityId: pending.id })).activity;
    expect((await read(members.alice)).canApprove).toBe(true);
    expect((await read(members.carol)).canApprove).toBe(false);
    const explanation = await engine.explainActivity(pending.id);
    expect(explanation.consensusWindow).toEqual({
      countingVoteIds: [afterExpiry.votes[2]!.id],
      expiredVoteIds: [afterExpiry.votes[0]!.id, afterExpiry.votes[1]!.id],
      closesAtMs: now + 24 * HOUR,
    });

    now += HOUR;
    expect((await approve(members.alice, pending.fingerprint)).status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    now += 60_000; // Another timestampMs: an identical approval body would be the same vote (idempotency).
    const done = await approve(members.bob, pending.fingerprint);
    expect(done.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(done.id).toBe(pending.id);
    expect(await walletNames()).toContain("late");
  });

  it("keeps an activity whose approvals expired waiting, never completing it on old votes", async () => {
    const pending = await submit("abandoned");
    now += HOUR;
    await approve(members.bob, pending.fingerprint);
    now += 30 * 24 * HOUR;
    const { activity } = await client(members.carol).getActivity({ organizationId, activityId: pending.id });
    expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(activity.canApprove).toBe(true);
    expect((await approve(members.carol, pending.fingerprint)).status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect((await engine.explainActivity(pending.id)).consensusWindow?.expiredVoteIds).toHaveLength(2);
  });
});
