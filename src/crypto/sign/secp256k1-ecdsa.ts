/**
 * secp256k1 ECDSA signing by libsecp256k1 (Bitcoin Core's library, compiled to WebAssembly and published by
 * bitcoinjs as `tiny-secp256k1`).
 *
 * It is the hot path of every EVM and Bitcoin signature. `@noble/curves` 2.x signs correctly too, but blinds
 * the secret scalar in pure-JS big-integer arithmetic and takes three to four times as long; libsecp256k1 is
 * constant-time, randomizes its context against side channels, and signs with the same RFC 6979 nonces and
 * low-S rule, so its signatures are byte for byte noble's and viem's (the tests check both). The module clears
 * its WebAssembly input buffers after each call, so the key does not linger there.
 *
 * Verification, public keys and BIP32 stay with `@noble/curves` and `@scure/bip32`.
 *
 * @module
 */
import { signRecoverable } from "tiny-secp256k1";

/**
 * The deterministic (RFC 6979), low-S ECDSA signature of a 32-byte digest, with its recovery id, in noble's
 * `recovered` layout: `recovery ‖ r ‖ s`, 65 bytes. `privateKey` must already be a valid scalar (the signer
 * checks it when prepared), and `digest` exactly 32 bytes.
 */
export function signSecp256k1Recovered(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recoveryId } = signRecoverable(digest, privateKey);
  const recovered = new Uint8Array(65);
  recovered[0] = recoveryId;
  recovered.set(signature, 1);
  return recovered;
}
