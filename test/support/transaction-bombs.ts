/**
 * Builders of hostile signing requests, shared by the transaction-bomb tests and the adversarial run
 * (`scripts/adversarial/transaction-bombs.ts`): PSBTs of many inputs and outputs, EIP-712 documents of absent
 * struct members, Ethereum access lists and Solana transactions of many instructions. Each answers the hex
 * or JSON a request carries.
 */
import { Transaction } from "@scure/btc-signer";
import { Transaction as EthTransaction } from "micro-eth-signer";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The first native segwit (P2WPKH) account of a wallet, the key the PSBT bombs spend from. */
export const BITCOIN_SEGWIT_ACCOUNT = {
  curve: "CURVE_SECP256K1",
  pathFormat: "PATH_FORMAT_BIP32",
  path: "m/84'/0'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH",
} as const;

/** The first taproot (P2TR) account of a wallet. */
export const BITCOIN_TAPROOT_ACCOUNT = {
  curve: "CURVE_SECP256K1",
  pathFormat: "PATH_FORMAT_BIP32",
  path: "m/86'/0'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR",
} as const;

/**
 * A PSBT spending `inputs` outputs that pay `script` and paying `outputs` outputs to `payTo`. Built without
 * the library's checks of what it spends and pays (legacy witness UTXOs, bare multisig, unknown scripts): the
 * server is the one to judge them.
 */
export function psbt(script: Uint8Array, inputs: number, outputs: number, payTo: Uint8Array = script): string {
  const tx = new Transaction({ allowUnknownOutputs: true, allowLegacyWitnessUtxo: true, disableScriptCheck: true });
  for (let index = 0; index < inputs; index++) {
    const txid = new Uint8Array(32);
    new DataView(txid.buffer).setUint32(0, index + 1);
    tx.addInput({ txid, index: 0, witnessUtxo: { script, amount: 10_000n } });
  }
  for (let index = 0; index < outputs; index++) tx.addOutput({ script: payTo, amount: 1_000n });
  return hex(tx.toPSBT());
}

/** The EIP-712 domain of the bomb documents. */
export const BOMB_DOMAIN = { name: "bombs", chainId: 1 };

/** A document whose message is a list of `count` values `{}` of a type with `members` struct members, all absent. */
export function absentMembers(members: number, count: number): string {
  const wide = Array.from({ length: members }, (_, index) => ({ name: `m${index}`, type: "Empty" }));
  return JSON.stringify({
    types: { Empty: [], Wide: wide, Bomb: [{ name: "items", type: "Wide[]" }] },
    primaryType: "Bomb",
    domain: BOMB_DOMAIN,
    message: { items: Array(count).fill({}) },
  });
}

/** An unsigned EIP-1559 transaction whose access list names `addresses` addresses (no storage keys). */
export function accessListTransaction(addresses: number): string {
  const accessList = Array.from({ length: addresses }, (_, index) => ({
    address: `0x${(index + 1).toString(16).padStart(40, "0")}`,
    storageKeys: [],
  }));
  const fields = {
    to: `0x${"11".repeat(20)}`,
    nonce: 0n,
    value: 0n,
    gasLimit: 21_000n,
    maxFeePerGas: 1n,
    maxPriorityFeePerGas: 1n,
    chainId: 1n,
    data: "",
    accessList,
  };
  return hex(new EthTransaction("eip1559", fields as never, { strict: false }).toBytes({ includeSignature: false }));
}

/** A compact-u16, as Solana messages count their items. */
function shortVec(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>= 7;
  }
  return [...bytes, rest];
}

/**
 * A legacy Solana transaction signed by `payer` alone, calling `program` with each of `instructions` (data only):
 * built byte by byte, since @solana/web3.js refuses anything over the 1,232-byte packet.
 */
export function solanaTransaction(payer: Uint8Array, program: Uint8Array, instructions: readonly Uint8Array[]): string {
  const message = [
    1,
    0,
    1,
    ...shortVec(2),
    ...payer,
    ...program,
    ...new Uint8Array(32),
    ...shortVec(instructions.length),
  ];
  for (const data of instructions) message.push(1, ...shortVec(0), ...shortVec(data.length), ...data);
  return hex(Uint8Array.from([...shortVec(1), ...new Uint8Array(64), ...message]));
}
