/**
 * The one HPKE configuration Turnkey's clients speak (docs/spec/wire-protocol.md §3): RFC 9180 base mode,
 * DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, info `turnkey_hpke`, and, unlike plain RFC 9180,
 * an AEAD associated data of `enc ‖ pkR`, both 65-byte uncompressed points.
 *
 * @module
 */
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { randomBytes as systemRandomBytes } from "@noble/hashes/utils.js";
import { concatBytes, utf8ToBytes } from "../bytes.js";
import { p256PublicKeyOf, parseP256PublicKeyHex } from "./p256-keys.js";

/** A source of cryptographically secure random bytes; inject a seeded one for deterministic tests. */
export type RandomBytes = (length: number) => Uint8Array;

/** The system CSPRNG, used when a caller injects nothing. */
export const defaultRandomBytes: RandomBytes = systemRandomBytes;

/** The HPKE `info` string Turnkey's enclaves and clients use (`TURNKEY_HPKE_INFO`). */
export const TURNKEY_HPKE_INFO = "turnkey_hpke";

const INFO = utf8ToBytes(TURNKEY_HPKE_INFO);

/** Where the receiver key sits in every intent that returns a bundle sealed to the client. */
const TARGET_PUBLIC_KEY_FIELD = "parameters.targetPublicKey";

/** RFC 9180 DeriveKeyPair needs at least Nsk (32) bytes of input keying material for P-256. */
const EPHEMERAL_IKM_LENGTH = 32;

const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });

/** Output of one HPKE seal: the 65-byte uncompressed encapsulated key and the AES-GCM ciphertext with tag. */
export interface HpkeSealed {
  enc: Uint8Array;
  ciphertext: Uint8Array;
}

/**
 * Seals `plaintext` to a client's `targetPublicKey` (hex, 33-byte compressed or 65-byte uncompressed P-256).
 *
 * The ephemeral key pair is `DeriveKeyPair(randomBytes(32))` (RFC 9180 §7.1.3), passed to `@hpke/core` as
 * its `ekm` sender parameter. That is the library's only way to take an injected ephemeral key; the library
 * labels it as meant for tests, but DeriveKeyPair over 32 fresh random bytes is exactly how RFC 9180 defines
 * key generation, so we use it always and randomness stays injectable.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `parameters.targetPublicKey` when the key is not a P-256
 *   point in either SEC1 encoding.
 */
export async function hpkeSealToTarget(
  plaintext: Uint8Array,
  targetPublicKey: string,
  randomBytes: RandomBytes = defaultRandomBytes,
): Promise<HpkeSealed> {
  // The AAD needs the uncompressed receiver key whatever form the client sent: the clients rebuild it from
  // their private key that way.
  const receiver = parseP256PublicKeyHex(targetPublicKey, TARGET_PUBLIC_KEY_FIELD);
  const recipientPublicKey = await suite.kem.deserializePublicKey(receiver);
  const ekm = randomBytes(EPHEMERAL_IKM_LENGTH);
  try {
    const sender = await suite.createSenderContext({ recipientPublicKey, info: INFO, ekm });
    const enc = new Uint8Array(sender.enc);
    const ciphertext = new Uint8Array(await sender.seal(plaintext, concatBytes(enc, receiver)));
    return { enc, ciphertext };
  } finally {
    ekm.fill(0);
  }
}

/**
 * Opens an HPKE ciphertext with the receiver's 32-byte private key (already validated); `enc` must be the
 * 65-byte uncompressed encapsulated key. Returns undefined when it does not authenticate, so each caller
 * can report the failure against its own field.
 */
export async function hpkeOpenWithPrivateKey(
  enc: Uint8Array,
  ciphertext: Uint8Array,
  receiverPrivateKey: Uint8Array,
): Promise<Uint8Array | undefined> {
  const aad = concatBytes(enc, p256PublicKeyOf(receiverPrivateKey));
  try {
    const recipientKey = await suite.kem.deserializePrivateKey(receiverPrivateKey);
    return new Uint8Array(await suite.open({ recipientKey, enc, info: INFO }, ciphertext, aad));
  } catch {
    // @hpke/core reports tag, decapsulation and key errors alike; none of them says more than "no".
    return undefined;
  }
}
