/**
 * `solana.tx` (docs/spec/policy-language.md §2, SolanaTransaction): a compiled legacy or v0 message as policies see it.
 *
 * - `account_keys`: the message's static accounts; `program_keys`: the programs its instructions call, once each.
 * - `instructions[]{program_key, accounts[]{account_key, signer, writable}, instruction_data_hex,
 *   address_table_lookups[]{address_table_key, index, writable}, parsed_instruction_data?}`. An account loaded
 *   from a lookup table shows as the literal `ADDRESS_TABLE_LOOKUP` (its address is not in the transaction);
 *   the instruction's lookups say which table entry it is.
 * - `transfers[]{from, to, amount}`: System program `Transfer` and `TransferWithSeed` instructions (lamports).
 *   Transfers made inside other programs are not seen, as Turnkey documents for its own engine.
 * - `spl_transfers[]{from, to, amount, owner, signers[], token_mint, decimals?, fee?}`: `Transfer`,
 *   `TransferChecked` and `TransferCheckedWithFee` of the Token and Token-2022 programs; `from`/`to` are token
 *   accounts, `owner` the authority, `signers` a multisig authority's signers; `token_mint` is `''` for a plain
 *   `Transfer`, which does not name its mint.
 * - `address_table_lookups[]{address_table_key, writable_indexes[], readonly_indexes[]}` and `recent_blockhash`.
 *
 * Integers (amounts, indexes) are BigInt. The instruction layouts are read from the data bytes directly (a
 * discriminator and little-endian integers at fixed offsets); the tests check them against `@solana/web3.js` and
 * `@solana/spl-token`, which build these instructions.
 *
 * @module
 */
import type {
  CompiledTransactionMessageWithLifetime,
  LegacyCompiledTransactionMessage,
  V0CompiledTransactionMessage,
} from "@solana/transaction-messages";
import { bytesToHex } from "../bytes.js";
import { type ProgramInterfaces, parseWithIdl } from "./solana-idl.js";
import type { InstructionAccount, ResolvedInstruction } from "./solana-instruction.js";
import type { PlainData } from "./types.js";

/** A decoded legacy or v0 message with its lifetime (recent blockhash or durable nonce). */
export type CompiledSolanaMessage = (LegacyCompiledTransactionMessage | V0CompiledTransactionMessage) &
  CompiledTransactionMessageWithLifetime;

/** How an account from a lookup table shows where an address is expected (docs/spec/policy-language.md §2). */
export const ADDRESS_TABLE_LOOKUP = "ADDRESS_TABLE_LOOKUP";

const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const TOKEN_PROGRAMS = new Set([
  "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
]);

// System program instructions are a u32 little-endian index (solana-program `SystemInstruction`).
const SYSTEM_TRANSFER = 2;
const SYSTEM_TRANSFER_WITH_SEED = 11;
// Token instructions are a u8 index (spl-token `TokenInstruction`); TransferCheckedWithFee is sub-instruction 1
// of Token-2022's TransferFeeExtension (26).
const TOKEN_TRANSFER = 3;
const TOKEN_TRANSFER_CHECKED = 12;
const TOKEN_TRANSFER_FEE_EXTENSION = 26;
const TRANSFER_CHECKED_WITH_FEE = 1;

/** The policy view of a message, waiting only for the stored IDLs of its programs. */
export interface SolanaPolicyTransaction {
  /** The programs called, once each, in order of first call. */
  readonly programKeys: readonly string[];
  /** `solana.tx`, with each instruction of a program in `interfaces` decoded by its IDL. */
  withInterfaces(interfaces: ProgramInterfaces): PlainData;
}

/** Resolves every account index of the message: static accounts first, then v0 lookups (writable, then read-only). */
function accountTable(message: CompiledSolanaMessage): InstructionAccount[] {
  const { header, staticAccounts } = message;
  const signers = header.numSignerAccounts;
  const accounts: InstructionAccount[] = staticAccounts.map((address, index) => ({
    account_key: address,
    signer: index < signers,
    writable:
      index < signers
        ? index < signers - header.numReadonlySignerAccounts
        : index < staticAccounts.length - header.numReadonlyNonSignerAccounts,
  }));
  const lookups = "addressTableLookups" in message ? (message.addressTableLookups ?? []) : [];
  for (const writable of [true, false]) {
    for (const lookup of lookups) {
      for (const index of writable ? lookup.writableIndexes : lookup.readonlyIndexes) {
        accounts.push({
          account_key: ADDRESS_TABLE_LOOKUP,
          signer: false,
          writable,
          lookup: { address_table_key: lookup.lookupTableAddress, index, writable },
        });
      }
    }
  }
  return accounts;
}

const UNKNOWN_ACCOUNT: InstructionAccount = { account_key: ADDRESS_TABLE_LOOKUP, signer: false, writable: false };

function resolveInstructions(message: CompiledSolanaMessage): ResolvedInstruction[] {
  const table = accountTable(message);
  // The message codec does not check indexes against the account table; an index past it names no account.
  const at = (index: number) => table[index] ?? UNKNOWN_ACCOUNT;
  return message.instructions.map((instruction) => ({
    programKey: at(instruction.programAddressIndex).account_key,
    accounts: (instruction.accountIndices ?? []).map(at),
    data: Uint8Array.from(instruction.data ?? []),
  }));
}

function u64At(data: Uint8Array, offset: number): bigint | undefined {
  if (data.length < offset + 8) return undefined;
  return new DataView(data.buffer, data.byteOffset).getBigUint64(offset, true);
}

function u32At(data: Uint8Array, offset: number): number | undefined {
  if (data.length < offset + 4) return undefined;
  return new DataView(data.buffer, data.byteOffset).getUint32(offset, true);
}

function systemTransfer(instruction: ResolvedInstruction): PlainData | undefined {
  if (instruction.programKey !== SYSTEM_PROGRAM) return undefined;
  const { data, accounts } = instruction;
  const kind = u32At(data, 0);
  const amount = u64At(data, 4);
  if (amount === undefined) return undefined;
  // Transfer: [from, to]; TransferWithSeed: [from (derived), base, to].
  const ends =
    kind === SYSTEM_TRANSFER
      ? [accounts[0], accounts[1]]
      : kind === SYSTEM_TRANSFER_WITH_SEED
        ? [accounts[0], accounts[2]]
        : [];
  const [from, to] = ends;
  if (!from || !to) return undefined;
  return { from: from.account_key, to: to.account_key, amount };
}

function splTransfer(instruction: ResolvedInstruction): PlainData | undefined {
  if (!TOKEN_PROGRAMS.has(instruction.programKey)) return undefined;
  const { data, accounts } = instruction;
  const keys = accounts.map((account) => account.account_key);
  const transfer = (from: number, mint: number | undefined, to: number, owner: number) => {
    if (keys.length <= Math.max(from, to, owner)) return undefined;
    return {
      from: keys[from] as string,
      to: keys[to] as string,
      owner: keys[owner] as string,
      signers: keys.slice(owner + 1),
      token_mint: mint === undefined ? "" : (keys[mint] as string),
    };
  };
  if (data[0] === TOKEN_TRANSFER) {
    const amount = u64At(data, 1);
    const ends = transfer(0, undefined, 1, 2);
    return amount === undefined || !ends ? undefined : { ...ends, amount };
  }
  if (data[0] === TOKEN_TRANSFER_CHECKED) {
    const amount = u64At(data, 1);
    const ends = transfer(0, 1, 2, 3);
    if (amount === undefined || data.length < 10 || !ends) return undefined;
    return { ...ends, amount, decimals: BigInt(data[9] as number) };
  }
  if (data[0] === TOKEN_TRANSFER_FEE_EXTENSION && data[1] === TRANSFER_CHECKED_WITH_FEE) {
    const amount = u64At(data, 2);
    const fee = u64At(data, 11);
    const ends = transfer(0, 1, 2, 3);
    if (amount === undefined || fee === undefined || !ends) return undefined;
    return { ...ends, amount, decimals: BigInt(data[10] as number), fee };
  }
  return undefined;
}

function instructionLookups(instruction: ResolvedInstruction): PlainData[] {
  return instruction.accounts.flatMap((account) =>
    account.lookup ? [{ ...account.lookup, index: BigInt(account.lookup.index) } as { [key: string]: PlainData }] : [],
  );
}

/** The policy view of a decoded message (see the module documentation for each field). */
export function solanaPolicyTransaction(message: CompiledSolanaMessage): SolanaPolicyTransaction {
  const instructions = resolveInstructions(message);
  const programKeys = [...new Set(instructions.map((instruction) => instruction.programKey))].filter(
    (key) => key !== ADDRESS_TABLE_LOOKUP,
  );
  const lookups = "addressTableLookups" in message ? (message.addressTableLookups ?? []) : [];
  const transfers = instructions.flatMap((instruction) => systemTransfer(instruction) ?? []);
  const splTransfers = instructions.flatMap((instruction) => splTransfer(instruction) ?? []);
  return {
    programKeys,
    withInterfaces(interfaces) {
      return {
        account_keys: [...message.staticAccounts],
        program_keys: programKeys,
        recent_blockhash: message.lifetimeToken,
        instructions: instructions.map((instruction) => {
          const parsed = parseWithIdl(instruction, interfaces);
          return {
            program_key: instruction.programKey,
            accounts: instruction.accounts.map(({ account_key, signer, writable }) => ({
              account_key,
              signer,
              writable,
            })),
            instruction_data_hex: bytesToHex(instruction.data),
            address_table_lookups: instructionLookups(instruction),
            ...(parsed === undefined ? {} : { parsed_instruction_data: parsed }),
          };
        }),
        transfers,
        spl_transfers: splTransfers,
        address_table_lookups: lookups.map((lookup) => ({
          address_table_key: lookup.lookupTableAddress,
          writable_indexes: lookup.writableIndexes.map(BigInt),
          readonly_indexes: lookup.readonlyIndexes.map(BigInt),
        })),
      };
    },
  };
}
