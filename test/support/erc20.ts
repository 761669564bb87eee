/**
 * A tiny ERC-20 for the balance tests, installed on anvil with `anvil_setCode` (no compiler at hand): it
 * answers `balanceOf`, `decimals`, `symbol`, `name` and `transfer` (emitting `Transfer`), keeping each
 * holder's balance in the storage slot named by the holder's address. Balances are minted with
 * `anvil_setStorageAt`. Its runtime code is assembled below from mnemonics; the tests check its behaviour
 * through viem, never through custodian.
 */
import { type Address, createPublicClient, erc20Abi, type Hex, http, keccak256, pad, toHex } from "viem";
import { anvilRpc } from "./anvil.js";

type Op = string | { push: bigint | string; size?: number } | { label: string } | { jumpTo: string };

const OPCODES: Record<string, number> = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  LT: 0x10,
  EQ: 0x14,
  SHR: 0x1c,
  CALLER: 0x33,
  CALLDATALOAD: 0x35,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMPI: 0x57,
  JUMPDEST: 0x5b,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  SWAP1: 0x90,
  LOG3: 0xa3,
  RETURN: 0xf3,
  REVERT: 0xfd,
};

/** Assembles `ops`: PUSHn of the value's width (or `size`), labels as JUMPDESTs, jumps as PUSH2 of a label. */
function assemble(ops: Op[]): Hex {
  const sizeOf = (op: Op): number => {
    if (typeof op === "string") return 1;
    if ("label" in op) return 1;
    if ("jumpTo" in op) return 3;
    return 1 + pushBytes(op).length;
  };
  const labels = new Map<string, number>();
  let offset = 0;
  for (const op of ops) {
    if (typeof op === "object" && "label" in op) labels.set(op.label, offset);
    offset += sizeOf(op);
  }
  const out: number[] = [];
  for (const op of ops) {
    if (typeof op === "string") {
      const code = OPCODES[op];
      if (code === undefined) throw new Error(`unknown opcode ${op}`);
      out.push(code);
    } else if ("label" in op) {
      out.push(OPCODES.JUMPDEST as number);
    } else if ("jumpTo" in op) {
      const target = labels.get(op.jumpTo);
      if (target === undefined) throw new Error(`unknown label ${op.jumpTo}`);
      out.push(0x61, target >> 8, target & 0xff);
    } else {
      const bytes = pushBytes(op);
      out.push(0x5f + bytes.length, ...bytes);
    }
  }
  return `0x${Buffer.from(out).toString("hex")}`;
}

function pushBytes(op: { push: bigint | string; size?: number }): number[] {
  const hex =
    typeof op.push === "string"
      ? op.push.replace(/^0x/, "")
      : op.push
          .toString(16)
          .padStart(2, "0")
          .replace(/^(.(..)*)$/, "0$1");
  const bytes = [...Buffer.from(hex, "hex")];
  const size = op.size ?? bytes.length;
  return [...new Array<number>(size - bytes.length).fill(0), ...bytes];
}

/** Returns a 32-byte word at memory 0. */
const returnWord = (value: Op[]): Op[] => [...value, { push: 0n }, "MSTORE", { push: 32n }, { push: 0n }, "RETURN"];

/** Returns an ABI string (at most 32 bytes). */
function returnString(text: string): Op[] {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length > 32) throw new Error("at most 32 bytes");
  return [
    { push: 0x20n },
    { push: 0n },
    "MSTORE",
    { push: BigInt(bytes.length) },
    { push: 0x20n },
    "MSTORE",
    { push: Buffer.concat([bytes, Buffer.alloc(32 - bytes.length)]).toString("hex"), size: 32 },
    { push: 0x40n },
    "MSTORE",
    { push: 0x60n },
    { push: 0n },
    "RETURN",
  ];
}

const TRANSFER_TOPIC = keccak256(toHex("Transfer(address,address,uint256)"));

/** The runtime code of a token with these `symbol`, `name` and `decimals`. */
export function erc20RuntimeCode(symbol: string, name: string, decimals: number): Hex {
  const dispatch = (selector: string, label: string): Op[] => [
    "DUP1",
    { push: selector, size: 4 },
    "EQ",
    { jumpTo: label },
    "JUMPI",
  ];
  return assemble([
    { push: 0n },
    "CALLDATALOAD",
    { push: 0xe0n },
    "SHR",
    ...dispatch("70a08231", "balanceOf"),
    ...dispatch("313ce567", "decimals"),
    ...dispatch("95d89b41", "symbol"),
    ...dispatch("06fdde03", "name"),
    ...dispatch("a9059cbb", "transfer"),
    { label: "fail" },
    { push: 0n },
    "DUP1",
    "REVERT",
    { label: "balanceOf" },
    ...returnWord([{ push: 4n }, "CALLDATALOAD", "SLOAD"]),
    { label: "decimals" },
    ...returnWord([{ push: BigInt(decimals) }]),
    { label: "symbol" },
    ...returnString(symbol),
    { label: "name" },
    ...returnString(name),
    { label: "transfer" },
    // [balance, amount]: refuse when balance < amount.
    "CALLER",
    "SLOAD",
    { push: 0x24n },
    "CALLDATALOAD",
    "DUP1",
    "DUP3",
    "LT",
    { jumpTo: "fail" },
    "JUMPI",
    // The sender's balance first, then the receiver's read after it (a transfer to oneself changes nothing).
    "DUP1",
    "DUP3",
    "SUB",
    "CALLER",
    "SSTORE",
    { push: 4n },
    "CALLDATALOAD",
    "DUP1",
    "SLOAD",
    "DUP3",
    "ADD",
    "SWAP1",
    "SSTORE",
    // Transfer(from, to, amount): the amount at memory 0.
    "DUP1",
    { push: 0n },
    "MSTORE",
    { push: 4n },
    "CALLDATALOAD",
    "CALLER",
    { push: TRANSFER_TOPIC, size: 32 },
    { push: 32n },
    { push: 0n },
    "LOG3",
    ...returnWord([{ push: 1n }]),
  ]);
}

export interface TestToken {
  address: Address;
  /** Sets `holder`'s balance (in the token's smallest unit). */
  mint(holder: Address, amount: bigint): Promise<void>;
  /** `holder`'s balance as viem reads it through the standard ERC-20 ABI. */
  balanceOf(holder: Address): Promise<bigint>;
}

/** Installs the token at `address` on the anvil at `rpcUrl`. */
export async function installTestToken(
  rpcUrl: string,
  address: Address,
  metadata: { symbol: string; name: string; decimals: number },
): Promise<TestToken> {
  await anvilRpc(rpcUrl, "anvil_setCode", [
    address,
    erc20RuntimeCode(metadata.symbol, metadata.name, metadata.decimals),
  ]);
  const client = createPublicClient({ transport: http(rpcUrl) });
  return {
    address,
    async mint(holder, amount) {
      await anvilRpc(rpcUrl, "anvil_setStorageAt", [address, pad(holder), pad(toHex(amount))]);
    },
    balanceOf: (holder) => client.readContract({ address, abi: erc20Abi, functionName: "balanceOf", args: [holder] }),
  };
}
