/**
 * Solana program-derived addresses (PDAs), as the runtime's `find_program_address` computes them: for the
 * bump seed 255 down to 0, sha256(seeds ‖ bump ‖ program id ‖ "ProgramDerivedAddress"), the first result
 * that is not an ed25519 point. The associated token account of an owner and a mint is the PDA of
 * (owner, token program, mint) under the Associated Token Account program, which is where wallets keep a token.
 * The tests check it against `@solana/spl-token`'s `getAssociatedTokenAddressSync`.
 *
 * @module
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";

/** The SPL Token program. */
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
/** The SPL Token-2022 program. */
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
/** The Associated Token Account program. */
export const ASSOCIATED_TOKEN_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";

const PDA_MARKER = new TextEncoder().encode("ProgramDerivedAddress");

/** Whether 32 bytes decode to an ed25519 point (as the runtime's curve check decides it). */
function isOnCurve(bytes: Uint8Array): boolean {
  try {
    // zip215 accepts the non-canonical encodings the runtime's decompression accepts.
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

/** The PDA of `seeds` (each at most 32 bytes) under `programId` (base58), with its bump seed. */
export function findProgramAddress(seeds: readonly Uint8Array[], programId: string): { address: string; bump: number } {
  const program = base58.decode(programId);
  for (let bump = 255; bump >= 0; bump--) {
    const hash = sha256.create();
    for (const seed of seeds) hash.update(seed);
    hash.update(Uint8Array.of(bump)).update(program).update(PDA_MARKER);
    const candidate = hash.digest();
    if (!isOnCurve(candidate)) return { address: base58.encode(candidate), bump };
  }
  // Each bump has an even chance; 256 misses in a row does not happen for any seeds in practice.
  throw new Error("no program-derived address for these seeds");
}

/** The associated token account of `owner` for `mint` under `tokenProgram` (all base58). */
export function associatedTokenAddress(owner: string, mint: string, tokenProgram: string): string {
  return findProgramAddress(
    [base58.decode(owner), base58.decode(tokenProgram), base58.decode(mint)],
    ASSOCIATED_TOKEN_PROGRAM,
  ).address;
}
