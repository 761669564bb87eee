/**
 * Accounts written straight into the local Solana devnet's runtime: an SPL mint and an owner's associated token
 * account, as a test sets up a token balance without sending the transactions that would create them.
 */
import { AccountLayout, AccountState, getAssociatedTokenAddressSync, MINT_SIZE, MintLayout } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import type { SolanaDevnet } from "./solana-devnet.js";

/** The SPL token program, which owns mints and token accounts. */
export const TOKEN_PROGRAM = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");

/** Writes an account holding `data`, owned by the program `owner`, rent-exempt. */
export function writeAccount(devnet: SolanaDevnet, address: PublicKey, data: Buffer, owner: PublicKey): void {
  devnet.svm.setAccount({
    address: address.toBase58(),
    data: new Uint8Array(data),
    executable: false,
    lamports: devnet.svm.minimumBalanceForRentExemption(BigInt(data.length)),
    programAddress: owner.toBase58(),
    space: BigInt(data.length),
  } as unknown as Parameters<SolanaDevnet["svm"]["setAccount"]>[0]);
}

/** Writes an initialized SPL mint of `decimals` at `address`, with no authority. */
export function writeMint(devnet: SolanaDevnet, address: PublicKey, decimals: number): PublicKey {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 0,
      mintAuthority: PublicKey.default,
      supply: 0n,
      decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  writeAccount(devnet, address, data, TOKEN_PROGRAM);
  return address;
}

/** Writes `owner`'s associated token account of `mint`, holding `amount`; returns its address. */
export function writeTokenAccount(devnet: SolanaDevnet, mint: PublicKey, owner: PublicKey, amount: bigint): PublicKey {
  const address = getAssociatedTokenAddressSync(mint, owner);
  const data = Buffer.alloc(AccountLayout.span);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: AccountState.Initialized,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  writeAccount(devnet, address, data, TOKEN_PROGRAM);
  return address;
}
