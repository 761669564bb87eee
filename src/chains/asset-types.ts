/**
 * The assets of a chain as the balance queries answer them (swagger `v1AssetMetadata`, `v1AssetBalance`), and
 * what a chain family's reader provides: its native asset, a listed token's metadata, and balances.
 *
 * @module
 */
import type { ChainBackend } from "./registry.js";

/** One asset of one chain, named by its CAIP-19 id. */
export interface AssetMetadata {
  /** `eip155:1/slip44:60`, `eip155:1/erc20:0x…`, `solana:<ref>/slip44:501`, `solana:<ref>/token:<mint>`. */
  readonly caip19: string;
  /** Empty when neither the host nor the chain names it. */
  readonly symbol: string;
  /** Empty when neither the host nor the chain names it. */
  readonly name: string;
  readonly decimals: number;
}

/** A token the host lists on a chain: its contract or mint, and what it says of it (the rest is read). */
export interface ListedToken {
  /** The ERC-20 contract (`0x` hex, lowercase) or the SPL mint (base58). */
  readonly address: string;
  readonly symbol?: string;
  readonly name?: string;
  readonly decimals?: number;
}

/** A listed token with its metadata complete (what the reader needs to read a balance). */
export interface KnownToken extends ListedToken {
  readonly metadata: AssetMetadata;
  /** The program that owns the mint (Solana: Token or Token-2022); the contract itself on EVM. */
  readonly owner: string;
}

/** What one chain family (a CAIP-2 namespace) knows how to read. */
export interface AssetReader {
  /** The chain's native asset. */
  native(caip2: string): AssetMetadata;
  /** Checks a listed token's address for this family; returns its canonical spelling or undefined. */
  canonicalTokenAddress(address: string): string | undefined;
  /** Whether `address` is an account address of this family. */
  isAccountAddress(address: string): boolean;
  /** The token's metadata: what the host gave, the rest read from the chain. */
  tokenMetadata(backend: ChainBackend, caip2: string, token: ListedToken): Promise<KnownToken>;
  /** The native balance of `address`, in the asset's smallest unit. */
  nativeBalance(backend: ChainBackend, address: string): Promise<bigint>;
  /** The balance of `token` held by `address`, in the token's smallest unit. */
  tokenBalance(backend: ChainBackend, token: KnownToken, address: string): Promise<bigint>;
}
