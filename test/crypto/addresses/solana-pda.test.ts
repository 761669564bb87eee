/**
 * Program-derived addresses and associated token accounts, checked against `@solana/web3.js` and
 * `@solana/spl-token` (the chain's own libraries), for both token programs.
 */
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import {
  ASSOCIATED_TOKEN_PROGRAM,
  associatedTokenAddress,
  findProgramAddress,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from "../../../src/crypto/addresses/solana-pda.js";

describe("Solana program-derived addresses", () => {
  it("names the programs as spl-token does", () => {
    expect(TOKEN_PROGRAM).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(TOKEN_2022_PROGRAM).toBe(TOKEN_2022_PROGRAM_ID.toBase58());
    expect(ASSOCIATED_TOKEN_PROGRAM).toBe(ASSOCIATED_TOKEN_PROGRAM_ID.toBase58());
  });

  it("finds the address and bump web3.js finds, for seeds of every length", () => {
    const program = Keypair.generate().publicKey;
    for (let length = 0; length <= 32; length += 4) {
      const seed = Keypair.generate().publicKey.toBytes().subarray(0, length);
      const [address, bump] = PublicKey.findProgramAddressSync([seed, Uint8Array.of(length)], program);
      expect(findProgramAddress([seed, Uint8Array.of(length)], program.toBase58())).toEqual({
        address: address.toBase58(),
        bump,
      });
    }
  });

  it("derives the associated token account spl-token derives, under Token and Token-2022", () => {
    for (let round = 0; round < 20; round++) {
      const owner = Keypair.generate().publicKey;
      const mint = Keypair.generate().publicKey;
      for (const program of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
        expect(associatedTokenAddress(owner.toBase58(), mint.toBase58(), program.toBase58())).toBe(
          getAssociatedTokenAddressSync(mint, owner, false, program).toBase58(),
        );
      }
    }
  });
});
