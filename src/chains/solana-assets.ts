/**
 * Balances on Solana clusters: SOL by `getBalance`, SPL tokens (Token and Token-2022) from the owner's
 * associated token account, the account wallets keep a mint's tokens in, read with `getAccountInfo`. The
 * mint account gives the decimals and which token program owns it; an SPL mint carries no symbol or name
 * (those live in optional metadata programs), so the host gives them.
 *
 * Account layouts (SPL Token's `Mint` and `Account`, which Token-2022 extends after the same bytes): a mint's
 * decimals at byte 44 and its `is_initialized` at 45; a token account's mint at 0, owner at 32 and amount (u64,
 * little-endian) at 64. The tests check these against `@solana/spl-token`'s layouts.
 *
 * @module
 */
import { base58 } from "@scure/base";
import { CustodyError } from "../common/errors.js";
import { associatedTokenAddress, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "../crypto/addresses/solana-pda.js";
import type { AssetMetadata, AssetReader, KnownToken, ListedToken } from "./asset-types.js";
import type { ChainBackend } from "./registry.js";
import { SolanaRpc } from "./solana-rpc.js";

const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;

/** A base58 string of 32 bytes (checked by its shape first: base58 decoding is quadratic in the length). */
function isAddress(value: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return false;
  try {
    return base58.decode(value).length === 32;
  } catch {
    return false;
  }
}

function notAMint(caip2: string, mint: string, why: string): CustodyError {
  return new CustodyError("FAILED_PRECONDITION", `the token ${mint} on ${caip2} ${why}`, {
    reason: "TOKEN_UNREADABLE",
    caip2,
    token: mint,
  });
}

export const solanaAssets: AssetReader = {
  native(caip2: string): AssetMetadata {
    return { caip19: `${caip2}/slip44:501`, symbol: "SOL", name: "Solana", decimals: 9 };
  },

  canonicalTokenAddress(address: string): string | undefined {
    return isAddress(address) ? address : undefined;
  },

  isAccountAddress: isAddress,

  async tokenMetadata(backend: ChainBackend, caip2: string, token: ListedToken): Promise<KnownToken> {
    const account = await new SolanaRpc(backend).accountInfo(token.address);
    if (!account) throw notAMint(caip2, token.address, "does not exist");
    if (account.owner !== TOKEN_PROGRAM && account.owner !== TOKEN_2022_PROGRAM) {
      throw notAMint(caip2, token.address, "is not owned by the SPL Token or Token-2022 program");
    }
    if (account.data.length < MINT_SIZE || account.data[45] !== 1) {
      throw notAMint(caip2, token.address, "is not an initialized mint");
    }
    const decimals = account.data[44] as number;
    const symbol = token.symbol ?? "";
    return {
      ...token,
      owner: account.owner,
      metadata: { caip19: `${caip2}/token:${token.address}`, symbol, name: token.name ?? symbol, decimals },
    };
  },

  async nativeBalance(backend: ChainBackend, address: string): Promise<bigint> {
    return new SolanaRpc(backend).balance(address);
  },

  async tokenBalance(backend: ChainBackend, token: KnownToken, address: string): Promise<bigint> {
    const holder = associatedTokenAddress(address, token.address, token.owner);
    const account = await new SolanaRpc(backend).accountInfo(holder);
    if (!account || account.owner !== token.owner || account.data.length < TOKEN_ACCOUNT_SIZE) return 0n;
    const { data } = account;
    // An associated token account holds its own mint for its own owner; anything else there is not one.
    if (base58.encode(data.subarray(0, 32)) !== token.address || base58.encode(data.subarray(32, 64)) !== address) {
      return 0n;
    }
    return new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true);
  },
};
