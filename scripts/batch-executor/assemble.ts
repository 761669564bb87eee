/**
 * The assembler of custodian's batch executor (`executor.evm` beside this file): one instruction per line,
 * each opcode named, labels resolved to one-byte offsets. Run it to rewrite
 * `src/chains/batch-executor-code.ts`; a test holds that file to what this assembler makes of the listing.
 *
 *   node --import tsx scripts/batch-executor/assemble.ts
 *
 * It knows only the opcodes the listing uses (an unknown one is an error), so it stays small enough to read.
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { keccak_256 } from "@noble/hashes/sha3.js";

/** The opcodes the listing may use, by their yellow-paper names. */
const OPCODES: Record<string, number> = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  LT: 0x10,
  GT: 0x11,
  EQ: 0x14,
  ISZERO: 0x15,
  SHA3: 0x20,
  ADDRESS: 0x30,
  CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36,
  CALLDATACOPY: 0x37,
  CODECOPY: 0x39,
  RETURNDATASIZE: 0x3d,
  RETURNDATACOPY: 0x3e,
  TIMESTAMP: 0x42,
  CHAINID: 0x46,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  MSTORE8: 0x53,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  GAS: 0x5a,
  JUMPDEST: 0x5b,
  PUSH0: 0x5f,
  PUSH1: 0x60,
  PUSH2: 0x61,
  PUSH32: 0x7f,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  DUP4: 0x83,
  DUP7: 0x86,
  DUP8: 0x87,
  SWAP1: 0x90,
  CALL: 0xf1,
  RETURN: 0xf3,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
};

/** The storage slot of the executor's nonce: keccak256("custodian.batch-executor.nonce"). */
export const NONCE_SLOT = `0x${Buffer.from(keccak_256(new TextEncoder().encode("custodian.batch-executor.nonce"))).toString("hex")}`;

/** Named constants the listing may push. */
const CONSTANTS: Record<string, string> = { NONCE_SLOT };

const hex = (bytes: number[]) => bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");

/** The bytes of a PUSHn argument: a label's offset, a named constant, or a hex number. */
function pushBytes(op: string, argument: string, labels: Map<string, number>, line: number): number[] {
  const size = Number(op.slice("PUSH".length));
  let value: bigint;
  if (argument.startsWith("@")) {
    const offset = labels.get(argument.slice(1));
    if (offset === undefined) throw new Error(`line ${line}: unknown label ${argument}`);
    value = BigInt(offset);
  } else {
    value = BigInt(CONSTANTS[argument] ?? argument);
  }
  if (value >= 1n << BigInt(8 * size)) throw new Error(`line ${line}: ${argument} does not fit ${op}`);
  return Array.from({ length: size }, (_, i) => Number((value >> BigInt(8 * (size - 1 - i))) & 0xffn));
}

/** Assembles a listing into runtime bytecode (hex, no `0x`). */
export function assemble(listing: string): string {
  type Instruction = { op: string; argument?: string; line: number };
  const instructions: (Instruction | { label: string })[] = [];
  listing.split("\n").forEach((text, index) => {
    const code = (text.split(";")[0] ?? "").trim();
    if (code === "") return;
    const label = /^@([a-z]+):$/.exec(code);
    if (label) {
      instructions.push({ label: label[1] as string });
      return;
    }
    const [op = "", argument, extra] = code.split(/\s+/);
    if (OPCODES[op] === undefined || extra !== undefined) throw new Error(`line ${index + 1}: cannot read "${code}"`);
    const isPush = /^PUSH[1-9][0-9]?$/.test(op);
    if (isPush !== (argument !== undefined))
      throw new Error(`line ${index + 1}: ${op} takes ${isPush ? "one argument" : "none"}`);
    instructions.push({ op, argument, line: index + 1 });
  });
  // Offsets first (every instruction's size is known from its opcode), then the bytes.
  const labels = new Map<string, number>();
  let offset = 0;
  for (const item of instructions) {
    if ("label" in item) labels.set(item.label, offset);
    else offset += 1 + (item.argument === undefined ? 0 : Number(item.op.slice("PUSH".length)));
  }
  const bytes: number[] = [];
  for (const item of instructions) {
    if ("label" in item) continue;
    if (item.argument === undefined) bytes.push(OPCODES[item.op] as number);
    else bytes.push(OPCODES[item.op] as number, ...pushBytes(item.op, item.argument, labels, item.line));
  }
  for (const [name, at] of labels) {
    if (bytes[at] !== OPCODES.JUMPDEST) throw new Error(`label @${name} is not at a JUMPDEST`);
  }
  return hex(bytes);
}

/** Creation code that returns `runtime` as the contract's code: CODECOPY it to memory, RETURN it. */
export function creationCode(runtime: string): string {
  const length = runtime.length / 2;
  const prelude = [
    OPCODES.PUSH2 as number,
    length >> 8,
    length & 0xff, // [length]
    OPCODES.DUP1 as number, // [length, length]
    OPCODES.PUSH1 as number,
    11, // [length, length, offset of the runtime: this prelude's 11 bytes]
    OPCODES.PUSH0 as number, // [length, length, 11, 0]
    OPCODES.CODECOPY as number, // memory[0...] = code[11...]
    OPCODES.PUSH0 as number,
    OPCODES.RETURN as number, // return memory[0..length)
    OPCODES.STOP as number,
  ];
  return hex(prelude) + runtime;
}

/** The listing beside this file. */
export function executorListing(): string {
  return readFileSync(fileURLToPath(new URL("./executor.evm", import.meta.url)), "utf8");
}

/** The generated module's text. */
export function generatedModule(): string {
  const runtime = assemble(executorListing());
  return `/**
 * custodian's batch executor, assembled from \`scripts/batch-executor/executor.evm\` by
 * \`scripts/batch-executor/assemble.ts\` (do not edit by hand; run the script). What it guarantees is said in
 * \`src/chains/batch-executor.ts\`.
 *
 * @module
 */

/** The executor's runtime code: what an account delegating to it runs. */
export const BATCH_EXECUTOR_RUNTIME =
  "0x${runtime}";

/** Its creation code: the runtime behind a prelude that returns it. */
export const BATCH_EXECUTOR_CREATION =
  "0x${creationCode(runtime)}";

/** The storage slot of the account's batch nonce: keccak256("custodian.batch-executor.nonce"). */
export const BATCH_EXECUTOR_NONCE_SLOT = "${NONCE_SLOT}";
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(fileURLToPath(new URL("../../src/chains/batch-executor-code.ts", import.meta.url)), generatedModule());
}
