/**
 * `eth_undelegate_7702` (through `@turnkey/sdk-server` and the HTTP adapter) against chain nodes that answer what
 * a chain cannot hold, or that are gone: every request ends promptly with a typed refusal, and nothing is sent.
 * - a node whose code for the account only starts like an EIP-7702 delegation: NOT_DELEGATED;
 * - a node whose code answer is not hex bytes: UNAVAILABLE, CHAIN_UNREACHABLE;
 * - an anvil that crashed (ended by a signal, as anvil 1.7.1 aborts on `anvil_setCode` with a malformed
 *   delegation): UNAVAILABLE, CHAIN_UNREACHABLE; and stopping it afterwards returns.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";
import { organizationWithMembers, walletParameters } from "../support/consensus.js";
import { type HostileAnswer, type HostileNode, startHostileNode } from "../support/hostile-node.js";
import { type RunningServer, sdkClient, serve } from "../support/server.js";

// The hostile node serves chain 1; anvil serves its devnet chain.
const HOSTILE = "eip155:1";
const DEVNET = "eip155:31337";
/** Far less than the 30 s a stalled request would take to be noticed. */
const PROMPT_MS = 5_000;

let node: HostileNode;
let anvil: RunningAnvil;
let server: RunningServer;
let fixture: Awaited<ReturnType<typeof organizationWithMembers>>;
let account: string;

/** The node answers `code` to eth_getCode and 1 to the rest (its chain id, nonces, fees). */
function codeAnswer(code: unknown): (method: string) => HostileAnswer {
  return (method) => ({ kind: "result", result: method === "eth_getCode" ? code : "0x1" });
}

/** The undelegation of the account on `caip2`, refused: the refusal's gRPC code, reason and field, and its time. */
async function refusedUndelegation(caip2: string) {
  const started = Date.now();
  const error = (await sdkClient(server, fixture.rootKey, fixture.organizationId)
    .ethUndelegate7702({ from: account, caip2 } as never)
    .then(
      () => {
        throw new Error("expected the undelegation to be refused");
      },
      (e: unknown) => e,
    )) as { code: number; details: { turnkeyErrorCode?: string; field?: string }[] | null };
  return {
    code: error.code,
    reason: error.details?.[0]?.turnkeyErrorCode,
    field: error.details?.find((detail) => detail.field !== undefined)?.field,
    ms: Date.now() - started,
  };
}

beforeAll(async () => {
  node = await startHostileNode(codeAnswer("0x"));
  anvil = await startAnvil();
  fixture = await organizationWithMembers([], { chains: { [HOSTILE]: node.url, [DEVNET]: anvil.rpcUrl } });
  server = await serve(fixture.engine);
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: walletParameters("undelegation"),
  });
  account = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult.addresses[0]!;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fixture?.engine.close();
  await node?.close();
  await anvil?.stop();
});

describe("a node answering code no chain holds", () => {
  it("code that only starts like a delegation (21 address bytes) is refused NOT_DELEGATED, and nothing is sent", async () => {
    node.answer = codeAnswer(`0xef0100${"11".repeat(21)}`);
    node.reset();
    const refused = await refusedUndelegation(HOSTILE);
    expect(refused).toMatchObject({ code: 9, reason: "NOT_DELEGATED", field: "parameters.from" });
    expect(refused.ms).toBeLessThan(PROMPT_MS);
    expect(node.methods).not.toContain("eth_sendRawTransaction");
  });

  for (const [name, code] of [
    ["a number", 42],
    ["null", null],
    ["odd-length hex", `0xef0100${"1".repeat(41)}`],
  ] as const) {
    it(`a code answer of ${name} is UNAVAILABLE, and nothing is sent`, async () => {
      node.answer = codeAnswer(code);
      node.reset();
      const refused = await refusedUndelegation(HOSTILE);
      expect(refused).toMatchObject({ code: 14, reason: "CHAIN_UNREACHABLE", field: "parameters.caip2" });
      expect(refused.ms).toBeLessThan(PROMPT_MS);
      expect(node.methods).not.toContain("eth_sendRawTransaction");
    });
  }
});

describe("an anvil that crashed", () => {
  it("is UNAVAILABLE at once; stopping it afterwards returns, though it ended by a signal", async () => {
    await anvil.crash();
    const refused = await refusedUndelegation(DEVNET);
    expect(refused).toMatchObject({ code: 14, reason: "CHAIN_UNREACHABLE", field: "parameters.caip2" });
    expect(refused.ms).toBeLessThan(PROMPT_MS);
    await anvil.stop();
  });
});
