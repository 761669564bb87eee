/**
 * The assets the engine reports on each configured chain: the native coin, and the tokens the host lists
 * (engine option `tokens`: ERC-20 contracts on EVM chains, SPL mints on Solana). What the host does not say of
 * a token is read from the chain the first time it is asked for, and kept (the list is the host's, so bounded).
 * Balances are read from the chain at call time; nothing is stored.
 *
 * @module
 */
import { invalidArgument } from "../common/errors.js";
import type { AssetMetadata, AssetReader, KnownToken, ListedToken } from "./asset-types.js";
import { chainFailure } from "./errors.js";
import { evmAssets } from "./evm-assets.js";
import { type ChainBackend, type ChainRegistry, caip2Namespace } from "./registry.js";
import { solanaAssets } from "./solana-assets.js";

/** A token the host lists: its contract or mint alone, or with what it says of it. */
export type TokenOption =
  | string
  | {
      /** The ERC-20 contract (`0x` hex) or the SPL mint (base58). */
      address: string;
      /** Its symbol; read from an ERC-20 contract when absent. Required for an SPL mint, which has none. */
      symbol?: string;
      /** Its name; read from an ERC-20 contract when absent, else the symbol. */
      name?: string;
      /** Its decimals; read from the contract when absent. A mint's own decimals always win. */
      decimals?: number;
    };

/** The `tokens` engine option: CAIP-2 id (a chain of `chains`) → the tokens listed on it. */
export type TokensOption = Readonly<Record<string, readonly TokenOption[]>>;

/** Tokens listed per chain, at most: a balance query reads each one. */
export const MAX_TOKENS_PER_CHAIN = 50;

/** Readers by CAIP-2 namespace. */
const READERS: Readonly<Record<string, AssetReader>> = { eip155: evmAssets, solana: solanaAssets };

/** A configured chain, as a query reaches it. */
interface Chain {
  /** Its id in the `chains` option. */
  readonly caip2: string;
  /** Its canonical id, which names its assets. */
  readonly name: string;
  readonly reader: AssetReader;
  readonly backend: ChainBackend;
}

/** One asset's balance. */
export interface AssetBalance {
  readonly asset: AssetMetadata;
  readonly balance: bigint;
}

function printable(value: unknown, max: number): value is string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return typeof value === "string" && value.length >= 1 && value.length <= max && !/[\u0000-\u001f\u007f]/.test(value);
}

/** Checks one entry of the option and returns it with its address in canonical form. */
function listedToken(option: TokenOption, reader: AssetReader, namespace: string, field: string): ListedToken {
  const entry = typeof option === "string" ? { address: option } : option;
  if (entry === null || typeof entry !== "object" || typeof entry.address !== "string") {
    throw invalidArgument("tokens: each token is an address or { address, symbol?, name?, decimals? }", field);
  }
  const address = reader.canonicalTokenAddress(entry.address);
  if (address === undefined) {
    throw invalidArgument(
      `tokens: ${entry.address} is not ${namespace === "solana" ? "a base58 mint address" : "a 0x contract address"}`,
      field,
    );
  }
  if (entry.symbol !== undefined && !printable(entry.symbol, 32)) {
    throw invalidArgument("tokens: symbol must be 1 to 32 printable characters", `${field}.symbol`);
  }
  if (entry.name !== undefined && !printable(entry.name, 128)) {
    throw invalidArgument("tokens: name must be 1 to 128 printable characters", `${field}.name`);
  }
  if (
    entry.decimals !== undefined &&
    (!Number.isInteger(entry.decimals) || entry.decimals < 0 || entry.decimals > 255)
  ) {
    throw invalidArgument("tokens: decimals must be a whole number from 0 to 255", `${field}.decimals`);
  }
  if (namespace === "solana" && entry.symbol === undefined) {
    throw invalidArgument(
      `tokens: give the symbol of the SPL mint ${address} (a mint carries none)`,
      `${field}.symbol`,
    );
  }
  return {
    address,
    ...(entry.symbol !== undefined ? { symbol: entry.symbol } : {}),
    ...(entry.name !== undefined ? { name: entry.name } : {}),
    ...(entry.decimals !== undefined ? { decimals: entry.decimals } : {}),
  };
}

/** The assets of the configured chains. */
export class AssetRegistry {
  readonly #chains: ChainRegistry;
  readonly #listed = new Map<string, readonly ListedToken[]>();
  /** Token metadata once read, by CAIP-19 id; a failed read is forgotten so the next call tries again. */
  readonly #known = new Map<string, Promise<KnownToken>>();

  constructor(chains: ChainRegistry, tokens: TokensOption = {}) {
    this.#chains = chains;
    for (const [named, list] of Object.entries(tokens)) {
      const field = `tokens.${named}`;
      const caip2 = chains.configuredId(named);
      if (chains.find(caip2) === undefined) {
        throw invalidArgument(`tokens: ${caip2} is not one of the chains option's chains`, field);
      }
      const namespace = caip2Namespace(caip2) as string;
      const reader = READERS[namespace];
      if (!reader) throw invalidArgument(`tokens: custodian reads no tokens on ${namespace} chains`, field);
      if (!Array.isArray(list)) throw invalidArgument("tokens: each chain's tokens are a list", field);
      if (list.length > MAX_TOKENS_PER_CHAIN) {
        throw invalidArgument(`tokens: at most ${MAX_TOKENS_PER_CHAIN} tokens per chain`, field);
      }
      const checked = list.map((option, index) => listedToken(option, reader, namespace, `${field}[${index}]`));
      const seen = new Set<string>();
      for (const [index, token] of checked.entries()) {
        if (seen.has(token.address))
          throw invalidArgument(`tokens: ${token.address} is listed twice`, `${field}[${index}]`);
        seen.add(token.address);
      }
      if (this.#listed.has(caip2)) throw invalidArgument(`tokens: ${named} names a chain listed already`, field);
      this.#listed.set(caip2, checked);
    }
  }

  /**
   * The chain `requested` names (under any of its spellings): its configured id, the canonical id its assets are
   * named under, its reader and backend; `FAILED_PRECONDITION` (`CHAIN_NOT_CONFIGURED`) naming it when it has no
   * backend, `INVALID_ARGUMENT` for a family custodian reads no assets of.
   */
  #chain(requested: string, field: string): Chain {
    const caip2 = this.#chains.configuredId(requested);
    const backend = this.#chains.require(caip2, field);
    const reader = READERS[caip2Namespace(caip2) as string];
    if (!reader) throw invalidArgument(`custodian reads no balances on ${caip2}`, field);
    return { caip2, name: this.#chains.canonicalId(caip2), reader, backend };
  }

  /** Whether `address` is an account address of `caip2`'s family. */
  isAccountAddress(caip2: string, address: string): boolean {
    return READERS[caip2Namespace(caip2) as string]?.isAccountAddress(address) ?? false;
  }

  async #tokens({ caip2, name, reader, backend }: Chain): Promise<KnownToken[]> {
    return Promise.all(
      (this.#listed.get(caip2) ?? []).map((token) => {
        const key = `${caip2}/${token.address}`;
        let known = this.#known.get(key);
        if (!known) {
          known = reader.tokenMetadata(backend, name, token);
          this.#known.set(key, known);
          known.catch(() => this.#known.delete(key));
        }
        return known;
      }),
    );
  }

  /** The native asset and the listed tokens of `caip2` (`field` names the request member for errors). */
  async assets(requested: string, field: string): Promise<AssetMetadata[]> {
    const chain = this.#chain(requested, field);
    try {
      const tokens = await this.#tokens(chain);
      return [chain.reader.native(chain.name), ...tokens.map((token) => token.metadata)];
    } catch (error) {
      throw chainFailure(error, chain.caip2, "read the listed tokens", field);
    }
  }

  /**
   * The native asset and the listed tokens of the configured chain `caip2`, with what a reader needs of each
   * token (for the balance watcher, which matches transfers against them).
   */
  async watchedAssets(caip2: string): Promise<{ native: AssetMetadata; tokens: KnownToken[] }> {
    const chain = this.#chain(caip2, "chains");
    return { native: chain.reader.native(chain.name), tokens: await this.#tokens(chain) };
  }

  /** Every asset of `caip2` with the balance `address` holds of it, zero balances included. */
  async balances(requested: string, address: string, field: string): Promise<AssetBalance[]> {
    const chain = this.#chain(requested, field);
    const { caip2, reader, backend } = chain;
    try {
      const tokens = await this.#tokens(chain);
      const [native, ...held] = await Promise.all([
        reader.nativeBalance(backend, address),
        ...tokens.map((token) => reader.tokenBalance(backend, token, address)),
      ]);
      return [
        { asset: reader.native(chain.name), balance: native as bigint },
        ...tokens.map((token, index) => ({ asset: token.metadata, balance: held[index] as bigint })),
      ];
    } catch (error) {
      throw chainFailure(error, caip2, "read balances", field);
    }
  }
}
