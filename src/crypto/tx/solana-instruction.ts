/**
 * A Solana instruction with its accounts resolved against the message: what the policy view is built from
 * and what a program's IDL decodes.
 *
 * @module
 */

/** One account of an instruction, resolved against the message's static accounts and lookups. */
export interface InstructionAccount {
  readonly account_key: string;
  readonly signer: boolean;
  readonly writable: boolean;
  /** Where a looked-up account comes from. */
  readonly lookup?: { readonly address_table_key: string; readonly index: number; readonly writable: boolean };
}

/** An instruction with its accounts resolved. */
export interface ResolvedInstruction {
  readonly programKey: string;
  readonly accounts: readonly InstructionAccount[];
  readonly data: Uint8Array;
}
