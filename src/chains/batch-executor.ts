/**
 * custodian's batch executor: the contract a sponsored account delegates to by EIP-7702, its calldata and
 * the digest the account's key signs. The code itself is assembled from `scripts/batch-executor/executor.evm`
 * (`batch-executor-code.ts`).
 *
 * What the executor guarantees, running as the account:
 * - it runs a batch only under the account's own signature (EIP-191 version 0x00, with the account as the
 *   intended validator) over the chain id, the account's batch nonce, a deadline and the calls, so whoever
 *   submits it (the sponsor) can neither change nor add a call, replay it, or use it on another chain;
 * - each signature runs once: the nonce, kept in the account's storage, moves on with every batch;
 * - the calls run in order, from the account, and the first that fails reverts them all with its revert data;
 * - empty calldata (ether sent to the account) is accepted and does nothing; anything else reverts.
 * It holds no other function: no owner, no upgrade, no way to move funds but a signed batch. Undelegating
 * (`eth_undelegate_7702`) leaves the account a plain account again, its nonce slot kept for a later return.
 *
 * The digest is encoded here by hand (a few fixed-width words); the tests hold it to the executor on a devnet,
 * which recovers the signer from it with the ecrecover precompile.
 *
 * @module
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "../crypto/bytes.js";

/** One call of a batch: from the account, to `to`, with `value` wei and `data`. */
export interface BatchCall {
  to: string;
  value: bigint;
  /** `0x` hex. */
  data: string;
}

/** What the account's key signs for one batch. */
export interface BatchAuthorization {
  account: string;
  chainId: bigint;
  /** The account's batch nonce (the executor's storage at its nonce slot). */
  nonce: bigint;
  /** Unix seconds: the batch is refused in a block stamped later. */
  deadline: bigint;
  calls: readonly BatchCall[];
}

/** The prefix of an account's code once it delegates by EIP-7702: `0xef0100`, then the delegate's address. */
export const DELEGATION_PREFIX = "0xef0100";

function word(value: bigint): string {
  return value.toString(16).padStart(64, "0");
}

function strip(hex: string): string {
  return (hex.startsWith("0x") ? hex.slice(2) : hex).toLowerCase();
}

/** The calls as the executor reads them: to, value and length as 32-byte words, then the data. */
export function encodeCalls(calls: readonly BatchCall[]): string {
  return calls
    .map((call) => {
      const data = strip(call.data);
      return word(BigInt(call.to)) + word(call.value) + word(BigInt(data.length / 2)) + data;
    })
    .join("");
}

/** The 32-byte digest the account's key signs for `batch`. */
export function batchDigest(batch: BatchAuthorization): Uint8Array {
  const callsHash = bytesToHex(keccak_256(hexToBytes(encodeCalls(batch.calls))));
  const message = `1900${strip(batch.account)}${word(batch.chainId)}${word(batch.nonce)}${word(batch.deadline)}${callsHash}`;
  return keccak_256(hexToBytes(message));
}

/** The executor's calldata: the signature (r, s and v as 27 or 28), the deadline, then the calls. */
export function batchCalldata(
  signature: { r: string; s: string; recoveryId: number },
  deadline: bigint,
  calls: readonly BatchCall[],
): string {
  const v = BigInt(27 + signature.recoveryId);
  return `0x${word(BigInt(`0x${strip(signature.r)}`))}${word(BigInt(`0x${strip(signature.s)}`))}${word(v)}${word(deadline)}${encodeCalls(calls)}`;
}

/** The code an account delegating to `delegate` shows. */
export function delegationCode(delegate: string): string {
  return `${DELEGATION_PREFIX}${strip(delegate)}`;
}

/**
 * The delegate of an account whose code is `code`, or undefined when that code is not a delegation. EIP-7702
 * writes exactly 23 bytes (the prefix and an address), so code that merely starts with the prefix, which no
 * chain can hold, is not taken for one.
 */
export function delegateOf(code: string): string | undefined {
  const match = /^0xef0100([0-9a-f]{40})$/.exec(code.toLowerCase());
  return match ? `0x${match[1]}` : undefined;
}
