/**
 * Opening the envelopes `@turnkey/crypto`'s `quorumKeyEncrypt` makes (QOS `qos_p256` encryption): what
 * `encryptOauth2ClientSecret` seals an OAuth 2.0 client secret in, to the key the engine names for that use.
 *
 * The envelope is borsh: a 12-byte nonce, the sender's ephemeral 65-byte uncompressed P-256 key, then the
 * AES-256-GCM ciphertext as a u32 little-endian length and its bytes. The AES key is the first 32 bytes of
 * HMAC-SHA512 keyed with `senderPublic || receiverPublic || x(ECDH)` over the message
 * `qos_encryption_hmac_message`; the additional data is `senderPublic || len || receiverPublic || len`.
 * Primitives are noble's; this module only lays the bytes out, and the tests open what the client sealed.
 *
 * @module
 */
import { gcm } from "@noble/ciphers/aes.js";
import { p256 } from "@noble/curves/nist.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { concatBytes, utf8ToBytes } from "../bytes.js";

const NONCE_LENGTH = 12;
const PUBLIC_KEY_LENGTH = 65;
const LENGTH_PREFIX = 4;
const HEADER_LENGTH = NONCE_LENGTH + PUBLIC_KEY_LENGTH + LENGTH_PREFIX;
const HMAC_MESSAGE = utf8ToBytes("qos_encryption_hmac_message");

/** Why an envelope does not open: its layout, its sender key, or its authentication tag. */
export class QuorumEnvelopeError extends Error {
  override readonly name = "QuorumEnvelopeError";
}

/**
 * The plaintext of `envelope`, sealed to the public key of `recipientPrivateKey` (32-byte P-256 scalar).
 * Throws {@link QuorumEnvelopeError} for anything that does not open.
 */
export function openQuorumEnvelope(envelope: Uint8Array, recipientPrivateKey: Uint8Array): Uint8Array {
  if (envelope.length < HEADER_LENGTH) throw new QuorumEnvelopeError("the envelope is too short");
  const nonce = envelope.subarray(0, NONCE_LENGTH);
  const senderPublic = envelope.subarray(NONCE_LENGTH, NONCE_LENGTH + PUBLIC_KEY_LENGTH);
  const length = new DataView(envelope.buffer, envelope.byteOffset + NONCE_LENGTH + PUBLIC_KEY_LENGTH).getUint32(
    0,
    true,
  );
  if (length !== envelope.length - HEADER_LENGTH) {
    throw new QuorumEnvelopeError("the envelope's ciphertext length does not match its size");
  }
  const ciphertext = envelope.subarray(HEADER_LENGTH);
  const receiverPublic = p256.getPublicKey(recipientPrivateKey, false);
  let shared: Uint8Array;
  try {
    shared = p256.getSharedSecret(recipientPrivateKey, senderPublic, false).subarray(1, 33);
  } catch {
    throw new QuorumEnvelopeError("the envelope's sender key is not a P-256 point");
  }
  const mac = hmac(sha512, concatBytes(senderPublic, receiverPublic, shared), HMAC_MESSAGE);
  const aad = concatBytes(
    senderPublic,
    Uint8Array.of(senderPublic.length),
    receiverPublic,
    Uint8Array.of(receiverPublic.length),
  );
  try {
    return gcm(mac.subarray(0, 32), nonce, aad).decrypt(ciphertext);
  } catch {
    throw new QuorumEnvelopeError("the envelope does not open with this key (sealed to another key, or altered)");
  } finally {
    mac.fill(0);
    shared.fill(0);
  }
}
