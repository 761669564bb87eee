/**
 * A larger precomputed table of the secp256k1 base point for processes that sign a lot.
 *
 * `@noble/curves` 2.x blinds the secret scalar of every signature (a side-channel defence worth keeping), which
 * makes the base-point multiplication walk 384 bits instead of 256: with its default 6-bit windows a signature
 * costs about 1.5× that of viem's local account (noble 1.x, unblinded). 10-bit windows bring it back level, but
 * the table takes about 3 MB and half a second or more to build, which a test suite that signs a handful of
 * payloads per test file should not pay. So the table is built once a process has signed
 * {@link LARGE_TABLE_AFTER} times: a workload that signs that much has amortised it within seconds.
 *
 * The table belongs to noble's shared `secp256k1.Point.BASE`, so other noble users in the process gain too.
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";

/** Signatures after which the larger table is built. */
export const LARGE_TABLE_AFTER = 2000;
const WINDOW_BITS = 10;

let signatures = 0;

/** Counts one secp256k1 signature, building the larger base-point table when the count is reached. */
export function countSecp256k1Signature(): void {
  if (++signatures === LARGE_TABLE_AFTER) secp256k1.Point.BASE.precompute(WINDOW_BITS, false);
}
