/**
 * Balances on EVM chains: the native coin by `eth_getBalance`, ERC-20 tokens by `eth_call`s of `balanceOf`,
 * `decimals`, `symbol` and `name`, encoded and decoded by micro-eth-signer's ERC-20 ABI. A contract that does not
 * answer `decimals()` (and has none given by the host) cannot be shown; a missing `symbol()` or `name()` (some old
 * tokens return `bytes32`) leaves it empty.
 *
 * @module
 */
import { createContract, ERC20 } from "micro-eth-signer/abi.js";
import { CustodyError } from "../common/errors.js";
import { bytesToHex, hexToBytes } from "../crypto/bytes.js";
import type { AssetMetadata, AssetReader, KnownToken, ListedToken } from "./asset-types.js";
import { EvmRpc } from "./evm-rpc.js";
import type { ChainBackend } from "./registry.js";
import { ChainRpcError } from "./rpc.js";

const erc20 = createContract(ERC20);

/** Native coins other than ether, of the EVM chains the API description lists. */
const NATIVE_COINS: Readonly<Record<string, { symbol: string; name: string }>> = {
  "137": { symbol: "POL", name: "Polygon" },
  "80002": { symbol: "POL", name: "Polygon" },
  "56": { symbol: "BNB", name: "BNB" },
  "97": { symbol: "BNB", name: "BNB" },
  "143": { symbol: "MON", name: "Monad" },
  "10143": { symbol: "MON", name: "Monad" },
};

/** Longest symbol and name read from a contract; a longer answer is not shown. */
const MAX_SYMBOL = 32;
const MAX_NAME = 128;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The caller of view calls: nothing the token reads depends on it. */
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

function tokenUnreadable(caip2: string, address: string, what: string): CustodyError {
  return new CustodyError(
    "FAILED_PRECONDITION",
    `the token ${address} on ${caip2} does not answer ${what}: is it an ERC-20 contract? (the host may give its decimals in the tokens option)`,
    { reason: "TOKEN_UNREADABLE", caip2, token: address },
  );
}

/** The bytes of an `eth_call` output, or undefined when it is empty or not hex. */
function outputBytes(output: string): Uint8Array | undefined {
  if (!/^0x([0-9a-fA-F]{2})+$/.test(output)) return undefined;
  return hexToBytes(output.slice(2));
}

/** Calls a view function of `token`, or undefined when it reverts or returns nothing. */
async function view(rpc: EvmRpc, token: string, data: Uint8Array): Promise<Uint8Array | undefined> {
  try {
    return outputBytes(await rpc.call({ from: ZERO_ADDRESS, to: token, data: `0x${bytesToHex(data)}` }, "latest"));
  } catch (error) {
    if (error instanceof ChainRpcError) return undefined;
    throw error;
  }
}

/** A string a contract returned, when it decodes as an ABI string of at most `max` printable characters. */
function decodeText(output: Uint8Array | undefined, max: number): string | undefined {
  if (output === undefined) return undefined;
  try {
    const text = erc20.symbol.decodeOutput(output) as unknown;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (typeof text === "string" && text.length <= max && !/[\u0000-\u001f\u007f]/.test(text)) return text;
  } catch {
    // Not an ABI string (bytes32 symbols, garbage): nothing to show.
  }
  return undefined;
}

export const evmAssets: AssetReader = {
  native(caip2: string): AssetMetadata {
    const coin = NATIVE_COINS[caip2.slice("eip155:".length)] ?? { symbol: "ETH", name: "Ether" };
    return { caip19: `${caip2}/slip44:60`, symbol: coin.symbol, name: coin.name, decimals: 18 };
  },

  canonicalTokenAddress(address: string): string | undefined {
    return ADDRESS.test(address) ? address.toLowerCase() : undefined;
  },

  isAccountAddress(address: string): boolean {
    return ADDRESS.test(address);
  },

  async tokenMetadata(backend: ChainBackend, caip2: string, token: ListedToken): Promise<KnownToken> {
    const rpc = new EvmRpc(backend);
    let decimals = token.decimals;
    if (decimals === undefined) {
      const output = await view(rpc, token.address, erc20.decimals.encodeInput());
      let read: unknown;
      try {
        read = output === undefined ? undefined : erc20.decimals.decodeOutput(output);
      } catch {
        read = undefined;
      }
      if (typeof read !== "bigint" && typeof read !== "number")
        throw tokenUnreadable(caip2, token.address, "decimals()");
      if (BigInt(read) > 255n) throw tokenUnreadable(caip2, token.address, "decimals() below 256");
      decimals = Number(read);
    }
    const symbol =
      token.symbol ?? decodeText(await view(rpc, token.address, erc20.symbol.encodeInput()), MAX_SYMBOL) ?? "";
    const name = token.name ?? decodeText(await view(rpc, token.address, erc20.name.encodeInput()), MAX_NAME) ?? symbol;
    return {
      ...token,
      owner: token.address,
      metadata: { caip19: `${caip2}/erc20:${token.address}`, symbol, name, decimals },
    };
  },

  async nativeBalance(backend: ChainBackend, address: string): Promise<bigint> {
    return new EvmRpc(backend).balance(address);
  },

  async tokenBalance(backend: ChainBackend, token: KnownToken, address: string): Promise<bigint> {
    const output = await view(new EvmRpc(backend), token.address, erc20.balanceOf.encodeInput(address));
    let balance: unknown;
    try {
      balance = output === undefined ? undefined : erc20.balanceOf.decodeOutput(output);
    } catch {
      balance = undefined;
    }
    if (typeof balance !== "bigint") {
      throw tokenUnreadable(token.metadata.caip19.split("/")[0] as string, token.address, "balanceOf(address)");
    }
    return balance;
  },
};
