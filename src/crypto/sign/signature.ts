/**
 * The wire form of a raw-payload signature (`v1SignRawPayloadResult`), as the official clients read it:
 * @turnkey/viem builds `0x{r}`, `0x{s}` and `yParity = v`; @turnkey/solana joins `r + s`
 * (docs/spec/wire-protocol.md §4, "Signature result formats").
 *
 * @module
 */
import { bytesToHex } from "../bytes.js";

/** The wire signature triple (`v1SignRawPayloadResult`). */
export interface RawPayloadSignature {
  /** 64 lowercase hex digits without `0x`: ECDSA r, or the first half (R) of an Ed25519 or BIP340 signature. */
  readonly r: string;
  /** 64 lowercase hex digits without `0x`: ECDSA s (low-S), or the second half (S) of an Ed25519 or BIP340 signature. */
  readonly s: string;
  /** `"00"` or `"01"`: the secp256k1 ECDSA recovery id; always `"00"` for Ed25519 ("to match what Turnkey does") and BIP340. */
  readonly v: string;
}

/** The wire triple of a noble `recovered` ECDSA signature (`recovery ‖ r ‖ s`, 65 bytes; secp256k1 or P-256). */
export function fromRecoveredSecp256k1(signature: Uint8Array): RawPayloadSignature {
  return {
    r: bytesToHex(signature.subarray(1, 33)),
    s: bytesToHex(signature.subarray(33, 65)),
    v: bytesToHex(signature.subarray(0, 1)),
  };
}

/**
 * The wire triple of a 64-byte `R ‖ S` signature: Ed25519, or BIP340 Schnorr (`x(R) ‖ s`), which
 * @turnkey/solana and @turnkey/bitcoin's `signSchnorr` read back as `r + s`. Neither has a recovery id, so `v`
 * is `"00"`.
 */
export function fromSixtyFourByteSignature(signature: Uint8Array): RawPayloadSignature {
  return { r: bytesToHex(signature.subarray(0, 32)), s: bytesToHex(signature.subarray(32, 64)), v: "00" };
}
