/**
 * A chain node is not trusted to be brief: an endless or huge answer is read no further than the answer limit
 * (the connection is closed there), an answer trickling in is cut off by the call's timeout, and a node's long
 * error message or odd value is quoted, with its full size, rather than repeated whole. Each failure is a typed
 * `ChainUnreachable` or `ChainRpcError`, as for any other node that does not answer or refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvmRpc } from "../../src/chains/evm-rpc.js";
import { httpChainBackend } from "../../src/chains/registry.js";
import { ChainRpcError, ChainUnreachable, DEFAULT_MAX_ANSWER_BYTES } from "../../src/chains/rpc.js";
import { SolanaRpc } from "../../src/chains/solana-rpc.js";
import { type HostileNode, startHostileNode } from "../support/hostile-node.js";
import { measuredRss } from "../support/rss.js";

/** Far past what a client that stops at the limit lets a node push (its read plus the sockets' buffers). */
const PUSHED_CAP = 32 * 1024 * 1024;
/** Far past what reading up to the limit costs; a client that reads the whole answer grows by gigabytes. */
const RSS_GROWTH_CAP = 128 * 1024 * 1024;

let node: HostileNode;

beforeAll(async () => {
  node = await startHostileNode({ kind: "endless" });
});
afterAll(() => node.close());

/** Runs `call`, sampling this process's memory meanwhile: its error, the peak memory growth and the time. */
async function measured(call: () => Promise<unknown>) {
  const {
    outcome: error,
    rssGrowth,
    ms,
  } = await measuredRss(() =>
    call().then(
      () => undefined,
      (e: unknown) => e,
    ),
  );
  return { error, rssGrowth, ms };
}

const evm = (timeoutMs = 10_000) => new EvmRpc(httpChainBackend(node.url, { timeoutMs }));

describe("chain answers past the limit", () => {
  it("stops reading an endless answer at the limit and fails as unreachable", async () => {
    node.answer = { kind: "endless" };
    node.reset();
    const { error, rssGrowth } = await measured(() => evm().chainId());
    expect(error).toBeInstanceOf(ChainUnreachable);
    expect(error).toMatchObject({
      method: "eth_chainId",
      reason: `the answer is larger than ${DEFAULT_MAX_ANSWER_BYTES} bytes`,
    });
    expect(node.written).toBeLessThan(PUSHED_CAP);
    expect(rssGrowth).toBeLessThan(RSS_GROWTH_CAP);
  });

  it("refuses a 200 MB answer by its announced length without reading it", async () => {
    node.answer = { kind: "huge", bytes: 200 * 1024 * 1024, announced: true };
    node.reset();
    const { error, rssGrowth } = await measured(() => evm().chainId());
    expect(error).toMatchObject({ name: "ChainUnreachable", reason: expect.stringMatching(/larger than/) });
    expect(node.written).toBeLessThan(PUSHED_CAP);
    expect(rssGrowth).toBeLessThan(RSS_GROWTH_CAP);
  });

  it("stops reading a 200 MB answer that does not announce its length", async () => {
    node.answer = { kind: "huge", bytes: 200 * 1024 * 1024, announced: false };
    node.reset();
    const { error, rssGrowth } = await measured(() => evm().chainId());
    expect(error).toMatchObject({ name: "ChainUnreachable", reason: expect.stringMatching(/larger than/) });
    expect(node.written).toBeLessThan(PUSHED_CAP);
    expect(rssGrowth).toBeLessThan(RSS_GROWTH_CAP);
  });

  it("takes a smaller limit from the backend's options", async () => {
    node.answer = { kind: "result", result: `0x${"1".repeat(2000)}` };
    const backend = httpChainBackend(node.url, { maxAnswerBytes: 1000 });
    await expect(backend.request("eth_chainId", [])).rejects.toMatchObject({
      name: "ChainUnreachable",
      reason: "the answer is larger than 1000 bytes",
    });
  });
});

describe("chain answers past the time", () => {
  it("cuts off an answer trickling in after its headers at the call's timeout", async () => {
    node.answer = { kind: "trickle", intervalMs: 100 };
    const { error, ms } = await measured(() => evm(500).chainId());
    expect(error).toBeInstanceOf(ChainUnreachable);
    expect(error).toMatchObject({ reason: "no answer within 500 ms" });
    // Generous: the point is that the 4.5 s the whole answer takes is not waited out.
    expect(ms).toBeLessThan(3000);
  });
});

describe("a node's long words", () => {
  it("quotes a long JSON-RPC error message with its full size", async () => {
    node.answer = { kind: "error", error: { code: -32000, message: "x".repeat(500_000) } };
    const error = await evm()
      .chainId()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainRpcError);
    const { rpcMessage, message } = error as ChainRpcError;
    expect(rpcMessage).toBe(`${"x".repeat(200)}… (500000 characters)`);
    expect(message.length).toBeLessThan(300);
  });

  it("quotes an odd value the node gave for a quantity", async () => {
    node.answer = { kind: "result", result: "y".repeat(100_000) };
    const error = await evm()
      .chainId()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainUnreachable);
    const { reason } = error as ChainUnreachable;
    expect(reason).toMatch(/^the answer "y+… \(100002 characters\) is not a hex quantity$/);
    expect(reason.length).toBeLessThan(300);
  });

  it("refuses a quantity wider than 256 bits", async () => {
    node.answer = { kind: "result", result: `0x1${"0".repeat(64)}` };
    await expect(evm().chainId()).rejects.toMatchObject({ name: "ChainUnreachable" });
  });

  it("names a value nested too deeply to print instead of failing on it", async () => {
    // A backend in the process, since printing the answer to send it would overflow too; JSON.parse takes it.
    const backend = {
      request: async () => JSON.parse(`${"[".repeat(100_000)}1${"]".repeat(100_000)}`) as unknown,
    };
    const error = await new EvmRpc(backend).chainId().catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "ChainUnreachable",
      reason: "the answer (an array nested too deeply to show) is not a hex quantity",
    });
  });

  it("refuses a blockhash that is not 32 bytes of base58 before anything decodes it", async () => {
    node.answer = { kind: "result", result: { value: { blockhash: "1".repeat(500_000), lastValidBlockHeight: 1 } } };
    const started = performance.now();
    await expect(new SolanaRpc(httpChainBackend(node.url)).latestBlockhash()).rejects.toMatchObject({
      name: "ChainUnreachable",
      reason: "the answer holds no blockhash",
    });
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
