/**
 * The tokens option and how the balance queries treat what the chain answers: the option is checked when the
 * engine is made (each refusal naming its member); token metadata is read once and kept, a failed read is tried
 * again; a contract or an account that is not a token is refused as TOKEN_UNREADABLE naming it; an answer the
 * engine cannot use is UNAVAILABLE. The nodes here are in-process `ChainBackend` objects answering as told.
 */
import { base64 } from "@scure/base";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { tokensOf } from "../../src/cli/serve.js";
import { type ChainBackend, ChainRpcError, CustodyEngine, MAX_TOKENS_PER_CHAIN } from "../../src/index.js";
import { refusal } from "../support/consensus.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

const EVM = "eip155:31337";
const TOKEN = "0x00000000000000000000000000000000000e2c20";
const MINT = Keypair.generate().publicKey.toBase58();
const idle: ChainBackend = { request: async () => null };

/** An ABI word holding `value`. */
const word = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;

describe("the tokens option", () => {
  it.each([
    [{ "eip155:1": [TOKEN] }, "tokens.eip155:1"],
    [{ [EVM]: ["0x1234"] }, `tokens.${EVM}[0]`],
    [{ [EVM]: [{ address: TOKEN, symbol: "" }] }, `tokens.${EVM}[0].symbol`],
    [{ [EVM]: [{ address: TOKEN, symbol: "A\u0000" }] }, `tokens.${EVM}[0].symbol`],
    [{ [EVM]: [{ address: TOKEN, name: "n".repeat(129) }] }, `tokens.${EVM}[0].name`],
    [{ [EVM]: [{ address: TOKEN, decimals: 256 }] }, `tokens.${EVM}[0].decimals`],
    [{ [EVM]: [{ address: TOKEN, decimals: 1.5 }] }, `tokens.${EVM}[0].decimals`],
    [{ [EVM]: [TOKEN, TOKEN.toUpperCase().replace("0X", "0x")] }, `tokens.${EVM}[1]`],
    [
      { [EVM]: Array.from({ length: MAX_TOKENS_PER_CHAIN + 1 }, (_, i) => word(BigInt(i + 1)).slice(0, 42)) },
      `tokens.${EVM}`,
    ],
    [{ "solana:devnet": [MINT] }, "tokens.solana:devnet[0].symbol"],
    [{ "solana:devnet": [{ address: "0OIl", symbol: "X" }] }, "tokens.solana:devnet[0]"],
    [{ "solana:devnet": [TOKEN] }, "tokens.solana:devnet[0]"],
    [{ [EVM]: [null] }, `tokens.${EVM}[0]`],
  ])("refuses %j", async (tokens, field) => {
    await expectCustodyError(
      (async () => new CustodyEngine({ chains: { [EVM]: idle, "solana:devnet": idle }, tokens: tokens as never }))(),
      "INVALID_ARGUMENT",
      field,
    );
  });

  it("accepts a Solana cluster's tokens under another spelling of the configured id", () => {
    expect(
      () =>
        new CustodyEngine({
          chains: { "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": idle },
          tokens: { "solana:devnet": [{ address: MINT, symbol: "USDC" }] },
        }),
    ).not.toThrow();
  });

  it("reads --token CAIP2=ADDRESS[,SYMBOL] as the option", () => {
    expect(tokensOf([`${EVM}=${TOKEN}`, `solana:devnet=${MINT},USDC`, `${EVM}=0xabc,X,Y`])).toEqual({
      [EVM]: [TOKEN, { address: "0xabc", symbol: "X,Y" }],
      "solana:devnet": [{ address: MINT, symbol: "USDC" }],
    });
    expect(() => tokensOf(["eip155:1"])).toThrow(/CAIP2=ADDRESS/);
    expect(() => tokensOf([`=${TOKEN}`])).toThrow(/CAIP2=ADDRESS/);
  });
});

/** An EVM node whose token answers `decimals()` as `decimals` says, and counts the calls it receives. */
function evmNode(decimals: () => string | Error) {
  const calls: string[] = [];
  const backend: ChainBackend = {
    async request(method, params) {
      calls.push(method === "eth_call" ? ((params[0] as { data: string }).data.slice(0, 10) ?? "") : method);
      if (method === "eth_getBalance") return "0x0";
      if (method !== "eth_call") throw new Error(`unexpected ${method}`);
      const selector = (params[0] as { data: string }).data.slice(0, 10);
      if (selector === "0x313ce567") {
        const answer = decimals();
        if (answer instanceof Error) throw answer;
        return answer;
      }
      if (selector === "0x70a08231") return word(5n);
      // symbol() and name() revert: the metadata leaves them to the host.
      throw new ChainRpcError("eth_call", 3, "execution reverted", "0x");
    },
  };
  return { backend, calls };
}

async function evmAccount(backend: ChainBackend, tokens: unknown[]) {
  const fixture = await engineWithOrganization({ chains: { [EVM]: backend }, tokens: { [EVM]: tokens as never } });
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: {
      walletName: "w",
      accounts: [
        {
          curve: "CURVE_SECP256K1",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/60'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        },
      ],
    },
  });
  const address = activity.result!.createWalletResult!.addresses[0] as string;
  const balances = () =>
    fixture.root.getWalletAddressBalances({ organizationId: fixture.organizationId, address, caip2: EVM });
  return { ...fixture, address, balances };
}

describe("token metadata", () => {
  it("is read once and kept; what the contract does not answer is left empty", async () => {
    const node = evmNode(() => word(2n));
    const { balances, root, organizationId } = await evmAccount(node.backend, [TOKEN]);
    const first = await balances();
    expect(first.balances).toEqual([
      { caip19: `${EVM}/erc20:${TOKEN}`, decimals: 2, balance: "5", display: { crypto: "0.05" } },
    ]);
    await balances();
    await root.listSupportedAssets({ organizationId, caip2: EVM });
    expect(node.calls.filter((call) => call === "0x313ce567")).toHaveLength(1);
    expect(node.calls.filter((call) => call === "0x70a08231")).toHaveLength(2);
  });

  it("is not read for what the host gave", async () => {
    const node = evmNode(() => new Error("never asked"));
    const { balances } = await evmAccount(node.backend, [{ address: TOKEN, symbol: "T", name: "Token", decimals: 0 }]);
    expect((await balances()).balances).toEqual([
      {
        caip19: `${EVM}/erc20:${TOKEN}`,
        symbol: "T",
        name: "Token",
        decimals: 0,
        balance: "5",
        display: { crypto: "5" },
      },
    ]);
    expect(node.calls).not.toContain("0x313ce567");
  });

  it("refuses a contract that answers no decimals as TOKEN_UNREADABLE, and reads it again at the next call", async () => {
    let answer: string | Error = new ChainRpcError("eth_call", 3, "execution reverted", "0x");
    const node = evmNode(() => answer);
    const { balances } = await evmAccount(node.backend, [TOKEN]);
    const error = await refusal(balances(), "FAILED_PRECONDITION", "TOKEN_UNREADABLE");
    expect(error.message).toContain(TOKEN);
    answer = word(300n);
    await refusal(balances(), "FAILED_PRECONDITION", "TOKEN_UNREADABLE");
    answer = "0xnot hex";
    await refusal(balances(), "FAILED_PRECONDITION", "TOKEN_UNREADABLE");
    answer = word(6n);
    expect((await balances()).balances[0]).toMatchObject({ decimals: 6, balance: "5" });
  });

  it("an answer that is no balance is UNAVAILABLE naming the chain", async () => {
    const { balances } = await evmAccount({ request: async () => "a lot" }, []);
    const error = await refusal(balances(), "UNAVAILABLE", "CHAIN_UNREACHABLE");
    expect(error.message).toContain(EVM);
  });
});

/** A Solana node answering `getAccountInfo` of the mint with `mint`, and no token account. */
function solanaNode(mint: () => unknown): ChainBackend {
  return {
    async request(method, params) {
      if (method === "getBalance") return { context: { slot: 1 }, value: 1 };
      if (method === "getAccountInfo") {
        return { context: { slot: 1 }, value: params[0] === MINT ? mint() : null };
      }
      throw new Error(`unexpected ${method}`);
    },
  };
}

async function solanaAccount(backend: ChainBackend) {
  const fixture = await engineWithOrganization({
    chains: { "solana:devnet": backend },
    tokens: { "solana:devnet": [{ address: MINT, symbol: "USDC" }] },
  });
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: {
      walletName: "w",
      accounts: [
        {
          curve: "CURVE_ED25519",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/501'/0'/0'",
          addressFormat: "ADDRESS_FORMAT_SOLANA",
        },
      ],
    },
  });
  const address = activity.result!.createWalletResult!.addresses[0] as string;
  return () =>
    fixture.root.getWalletAddressBalances({ organizationId: fixture.organizationId, address, caip2: "solana:devnet" });
}

const mintData = (initialized: boolean) => {
  const data = new Uint8Array(82);
  data[44] = 6;
  data[45] = initialized ? 1 : 0;
  return [base64.encode(data), "base64"];
};

describe("SPL mints", () => {
  it("refuses an account that is not an initialized mint of a token program as TOKEN_UNREADABLE", async () => {
    for (const mint of [
      null,
      { owner: "11111111111111111111111111111111", data: mintData(true) },
      { owner: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", data: mintData(false) },
      { owner: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", data: [base64.encode(new Uint8Array(10)), "base64"] },
    ]) {
      const error = await refusal(
        solanaAccount(solanaNode(() => mint)).then((read) => read()),
        "FAILED_PRECONDITION",
        "TOKEN_UNREADABLE",
      );
      expect(error.message).toContain(MINT);
    }
  });

  it("answers an empty holding when the owner has no token account, and UNAVAILABLE for account data it cannot read", async () => {
    const read = await solanaAccount(
      solanaNode(() => ({ owner: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", data: mintData(true) })),
    );
    expect((await read()).balances).toEqual([
      {
        caip19: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501",
        symbol: "SOL",
        name: "Solana",
        decimals: 9,
        balance: "1",
        display: { crypto: "0.000000001" },
      },
    ]);
    for (const data of [
      ["A".repeat(20_000), "base64"],
      ["!!", "base64"],
      [base64.encode(new Uint8Array(82)), "base58"],
      "AAAA",
    ]) {
      const hostile = await solanaAccount(
        solanaNode(() => ({ owner: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", data })),
      );
      await refusal(hostile(), "UNAVAILABLE", "CHAIN_UNREACHABLE");
    }
  });
});
