/**
 * A sponsored or batched `eth_send_transaction` is decided by policies before anything else, through
 * `@turnkey/sdk-server` against the HTTP adapter on a host that gives no sponsor: an agent wallet's send that
 * a policy denies answers the policy's denial, one needing a second approver reaches CONSENSUS_NEEDED, and only
 * an allowed one is refused FAILED_PRECONDITION (`GAS_STATION_UNAVAILABLE`), at once or at the approval that
 * completes it. Each call of a batch is judged as its own transaction, so one denied call denies the batch.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addSendPolicies,
  BLOCKED_TO,
  type Member,
  organizationWithMembers,
  REVIEWED_TO,
  walletParameters,
} from "../support/consensus.js";
import type { ApiKeyPair } from "../support/engine.js";
import { EXPLICIT_DENIAL, officialRefusal } from "../support/official-refusal.js";
import { type RunningServer, sdkClient, serve } from "../support/server.js";

const CAIP2 = "eip155:31337";
const ALLOWED = "0x00000000000000000000000000000000000a110e";

let server: RunningServer;
let fixture: Awaited<ReturnType<typeof organizationWithMembers<"agent" | "reviewer">>>;
let agent: Member;
let from: string;

const sdk = (key: ApiKeyPair) => sdkClient(server, key, fixture.organizationId);

const send = (calls: { to: string; value?: string }[], sponsor = true) =>
  sdk(agent.key).ethSendTransaction({ from, caip2: CAIP2, sponsor, calls } as never);

beforeAll(async () => {
  fixture = await organizationWithMembers(["agent", "reviewer"]);
  agent = fixture.members.agent;
  server = await serve(fixture.engine);
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: walletParameters("Agent wallet"),
  });
  from = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult.addresses[0]!;
  await addSendPolicies(fixture.root, fixture.organizationId, fixture.members, {
    to: ALLOWED,
    policyName: "the agent sends to a110e",
  });
});

afterAll(async () => {
  await server?.close();
  await fixture?.engine.close();
});

describe("a sponsored send on a host without a sponsor", () => {
  it("that a policy denies answers the policy's denial, not the missing gas station", async () => {
    const denied = await officialRefusal(send([{ to: BLOCKED_TO, value: "1" }]));
    expect(denied).toMatchObject({ code: 7, message: EXPLICIT_DENIAL });
  });

  it("that no policy allows answers the implicit denial", async () => {
    const denied = await officialRefusal(send([{ to: "0x0000000000000000000000000000000000000001" }]));
    expect(denied.code).toBe(7);
    expect(denied.message).toContain("You don't have sufficient permissions");
  });

  it("that policies allow is refused FAILED_PRECONDITION GAS_STATION_UNAVAILABLE", async () => {
    const refused = await officialRefusal(send([{ to: ALLOWED, value: "1" }]));
    expect(refused).toMatchObject({ code: 9, reason: "GAS_STATION_UNAVAILABLE" });
    expect(refused.message).toContain("sponsor");
  });

  it("that needs a second approver waits in CONSENSUS_NEEDED; the approval then meets the refusal", async () => {
    const pending = await send([{ to: REVIEWED_TO, value: "1" }]);
    expect(pending.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const reviewer = new TurnkeyClient(
      { baseUrl: server.baseUrl },
      new ApiKeyStamper({
        apiPublicKey: fixture.members.reviewer.key.publicKey,
        apiPrivateKey: fixture.members.reviewer.key.privateKey,
      }),
    );
    const approval = await reviewer.approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      timestampMs: String(Date.now()),
      organizationId: fixture.organizationId,
      parameters: { fingerprint: pending.activity.fingerprint },
    });
    expect(approval.activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(JSON.stringify(approval.activity.failure)).toContain("GAS_STATION_UNAVAILABLE");
  });
});

describe("a batch of calls on a host without a gas station", () => {
  it("is judged call by call: one denied call denies the whole batch", async () => {
    const denied = await officialRefusal(send([{ to: ALLOWED }, { to: BLOCKED_TO }], false));
    expect(denied).toMatchObject({ code: 7, message: EXPLICIT_DENIAL });
  });

  it("with a call needing approval waits in CONSENSUS_NEEDED", async () => {
    const pending = await send([{ to: ALLOWED }, { to: REVIEWED_TO }], false);
    expect(pending.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
  });

  it("whose every call is allowed is refused GAS_STATION_UNAVAILABLE naming the calls", async () => {
    const refused = await officialRefusal(send([{ to: ALLOWED }, { to: ALLOWED, value: "2" }], false));
    expect(refused).toMatchObject({ code: 9, reason: "GAS_STATION_UNAVAILABLE" });
  });
});
