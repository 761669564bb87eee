/**
 * SLIP-0010 key derivation for ed25519: HMAC-SHA512 with the key `"ed25519 seed"` for the master key,
 * then `HMAC-SHA512(chainCode, 0x00 || k || ser32(i))` per hardened child. SLIP-10 defines no
 * non-hardened ed25519 child; what to do with one is the caller's policy (see `derive.ts`).
 *
 * @module
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "../bytes.js";
import { HARDENED_OFFSET } from "./path.js";

/** A SLIP-10 ed25519 extended private key. */
export interface Ed25519ExtendedKey {
  /** The 32-byte ed25519 secret (RFC 8032 seed), IL of the HMAC. */
  readonly privateKey: Uint8Array;
  /** IR of the HMAC. */
  readonly chainCode: Uint8Array;
}

const MASTER_HMAC_KEY = utf8ToBytes("ed25519 seed");

function split(digest: Uint8Array): Ed25519ExtendedKey {
  return { privateKey: digest.slice(0, 32), chainCode: digest.slice(32) };
}

/** The master key of `seed`. Every 32-byte string is a valid ed25519 secret, so no retry is needed. */
export function ed25519MasterKey(seed: Uint8Array): Ed25519ExtendedKey {
  return split(hmac(sha512, MASTER_HMAC_KEY, seed));
}

/** The hardened child `index'` (`index` below 2^31) of `parent`. */
export function ed25519HardenedChild(parent: Ed25519ExtendedKey, index: number): Ed25519ExtendedKey {
  const data = new Uint8Array(37);
  data.set(parent.privateKey, 1);
  new DataView(data.buffer).setUint32(33, index + HARDENED_OFFSET, false);
  const child = split(hmac(sha512, parent.chainCode, data));
  data.fill(0);
  return child;
}

/** The RFC 8032 public key (32 bytes) of a SLIP-10 ed25519 secret. */
export function ed25519PublicKey(privateKey: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(privateKey);
}
