/**
 * A broken or hostile chain node behind `eth_send_transaction`: its endless or 200 MB answer fails the activity
 * as UNAVAILABLE once the answer limit is read (memory stays bounded), and its long error message or revert
 * reason is recorded in the FAILED activity as a short quote naming its full size, not verbatim.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_ANSWER_BYTES } from "../../src/chains/rpc.js";
import { organizationWithMembers, refusal, walletParameters } from "../support/consensus.js";
import { type HostileAnswer, type HostileNode, startHostileNode } from "../support/hostile-node.js";
import { measuredRss } from "../support/rss.js";

const CAIP2 = "eip155:31337";
/** Far past what reading up to the answer limit costs; reading a whole endless answer costs gigabytes. */
const RSS_GROWTH_CAP = 128 * 1024 * 1024;
/** A FAILED activity quoting a node stays this small, whatever the node said. */
const ACTIVITY_CAP = 8 * 1024;

let node: HostileNode;
let fixture: Awaited<ReturnType<typeof organizationWithMembers>>;
let sender: string;

beforeAll(async () => {
  node = await startHostileNode({ kind: "endless" });
  fixture = await organizationWithMembers([], { chains: { [CAIP2]: node.url } });
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: walletParameters("hostile node"),
  });
  sender = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult
    .addresses[0] as string;
});
afterAll(async () => {
  await fixture.engine.close();
  await node.close();
});

/** A send whose nonce and fees are given, so the node is asked for the chain id and the gas estimate. */
function send(value: string) {
  return fixture.root.ethSendTransaction({
    organizationId: fixture.organizationId,
    timestampMs: String(Date.now()),
    type: "ACTIVITY_TYPE_ETH_SEND_TRANSACTION",
    parameters: {
      from: sender,
      to: "0x000000000000000000000000000000000000beef",
      caip2: CAIP2,
      value,
      nonce: "0",
      maxFeePerGas: "2000000000",
      maxPriorityFeePerGas: "1000000000",
    },
  });
}

/** The stored activity `activityId` as the API renders it, in JSON. */
async function storedActivity(activityId: unknown): Promise<string> {
  const { activity } = await fixture.root.getActivity({
    organizationId: fixture.organizationId,
    activityId: activityId as string,
  });
  expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
  return JSON.stringify(activity);
}

describe("a node's endless or huge answer", () => {
  const answers: [string, HostileAnswer][] = [
    ["an endless answer", { kind: "endless" }],
    ["a 200 MB answer", { kind: "huge", bytes: 200 * 1024 * 1024, announced: false }],
  ];
  for (const [index, [name, answer]] of answers.entries()) {
    it(`fails the send as UNAVAILABLE on ${name}, reading no more than the limit`, async () => {
      node.answer = answer;
      const { outcome: error, rssGrowth } = await measuredRss(() =>
        refusal(send(String(101 + index)), "UNAVAILABLE", "CHAIN_UNREACHABLE"),
      );
      expect(error.message).toContain(`the answer is larger than ${DEFAULT_MAX_ANSWER_BYTES} bytes`);
      expect(rssGrowth).toBeLessThan(RSS_GROWTH_CAP);
      expect((await storedActivity(error.details.activityId)).length).toBeLessThan(ACTIVITY_CAP);
    });
  }
});

describe("a node's long words in a FAILED activity", () => {
  it("records a quote of a 500 000-character error message, naming its size", async () => {
    node.answer = { kind: "error", error: { code: -32000, message: "z".repeat(500_000) } };
    const error = await refusal(send("11"), "FAILED_PRECONDITION", "CHAIN_REJECTED");
    expect(error.message).toContain(`${"z".repeat(200)}… (500000 characters)`);
    expect(error.message).not.toContain("z".repeat(201));
    const stored = await storedActivity(error.details.activityId);
    expect(stored).toContain("(500000 characters)");
    expect(stored.length).toBeLessThan(ACTIVITY_CAP);
  });

  it("records a quote of a 500 000-character revert reason from the gas estimate", async () => {
    const reason = Buffer.from("r".repeat(500_000));
    const word = (n: number) => n.toString(16).padStart(64, "0");
    const revertData = `0x08c379a0${word(32)}${word(reason.length)}${reason.toString("hex")}`;
    node.answer = (method) =>
      method === "eth_chainId"
        ? { kind: "result", result: "0x7a69" }
        : { kind: "error", error: { code: 3, message: "execution reverted", data: revertData } };
    const error = await refusal(send("12"), "FAILED_PRECONDITION", "TRANSACTION_REVERTS");
    expect(error.message).toContain(`${"r".repeat(200)}… (500000 characters)`);
    const stored = await storedActivity(error.details.activityId);
    expect(stored.length).toBeLessThan(ACTIVITY_CAP);
  });
});
