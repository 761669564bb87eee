/**
 * Prepared signing keys. Signing is the hot path of `sign_raw_payload(s)`, so the per-key work (checking the
 * scalar, building the node:crypto key object) happens once in {@link prepareSigner}; the engine can keep the
 * result per account and call `sign` for every payload.
 *
 * - secp256k1: libsecp256k1 ECDSA (`secp256k1-ecdsa.ts`) over the 32-byte digest, RFC 6979 deterministic nonces,
 *   low-S, with the recovery id: byte for byte what `@noble/curves` and viem give, several times faster.
 * - P-256 (standalone private keys): `@noble/curves` ECDSA as for secp256k1.
 * - Ed25519: node:crypto (OpenSSL), which signs several times faster than pure JS; RFC 8032 Ed25519 is
 *   deterministic, so the result equals noble's.
 * - Taproot (secp256k1 keys only, {@link PreparedSigner.taproot}): BIP340 Schnorr by the BIP86-tweaked key
 *   (`@scure/btc-signer`'s BIP341 `taprootTweakPrivKey` with no script tree, libsecp256k1's `schnorrsig` through
 *   `tiny-secp256k1`: BIP340 fixes the signature given the auxiliary data, so it is noble's byte for byte, in a
 *   tenth of the time, since noble verifies each signature it makes), for P2TR key-path spends: what a raw payload signed with a P2TR address, and a PSBT's P2TR input, need.
 *
 * @module
 */
import { createPrivateKey, type KeyObject, sign as nodeSign } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { taprootTweakPrivKey } from "@scure/btc-signer/utils.js";
import { signSchnorr } from "tiny-secp256k1";
import { type CustodyError, invalidArgument } from "../../common/errors.js";
import { hexToBytes } from "../bytes.js";
import { signTypedData } from "./eip712.js";
import type { SigningCurve } from "./enums.js";
import { assertSigningCurve, type SigningInput } from "./scheme.js";
import { signSecp256k1Recovered } from "./secp256k1-ecdsa.js";
import { fromRecoveredSecp256k1, fromSixtyFourByteSignature, type RawPayloadSignature } from "./signature.js";

/** A signing key made ready for repeated use. It holds the key: keep it where the key itself may be kept. */
export interface PreparedSigner {
  /** The key's curve. */
  readonly curve: SigningCurve;
  /**
   * Signs what {@link toSigningInput} produced for this curve. A kind the curve cannot sign (a digest for
   * Ed25519, a message for secp256k1) gives `INVALID_ARGUMENT`; an EIP-712 document that cannot be encoded gives
   * `INVALID_ARGUMENT` naming the input's field.
   */
  sign(input: SigningInput): RawPayloadSignature;
  /** The taproot key-path signer of a secp256k1 key; absent for other curves. */
  readonly taproot?: TaprootKeySigner;
}

/**
 * A secp256k1 key as a BIP86 taproot output: the key tweaked by `tagged_hash("TapTweak", x(P))` with no script
 * tree (BIP341 `taproot_tweak_seckey` with an empty merkle root), which is what a P2TR address of the key pays.
 */
export interface TaprootKeySigner {
  /** The 32-byte x-only output key Q a P2TR output of this key commits to (`OP_1 <Q>`). */
  readonly outputKey: Uint8Array;
  /**
   * The 64-byte BIP340 Schnorr signature of a 32-byte digest (a BIP341 sighash) by the tweaked key. Anything
   * but 32 bytes gives `INVALID_ARGUMENT` naming `field`.
   */
  sign(digest: Uint8Array, field: string): Uint8Array;
}

const PRIVATE_KEY_BYTES = 32;
// PKCS#8 PrivateKeyInfo for id-Ed25519 (OID 1.3.101.112) wrapping a 32-byte seed (RFC 8410 §7):
// SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING { OCTET STRING (32 bytes) } }.
const ED25519_PKCS8_PREFIX = hexToBytes("302e020100300506032b657004220420");

/**
 * Prepares `privateKey` for signing on `curve`: a 32-byte secp256k1 or P-256 scalar, or a 32-byte Ed25519
 * seed (the SLIP-10 / RFC 8032 private key). The key is copied, so the caller may wipe its own bytes
 * afterwards. A malformed key gives `INVALID_ARGUMENT` naming `privateKey`, never quoting it; another curve
 * gives `UNIMPLEMENTED`.
 */
export function prepareSigner(curve: SigningCurve, privateKey: Uint8Array): PreparedSigner {
  assertSigningCurve(curve);
  if (!(privateKey instanceof Uint8Array) || privateKey.length !== PRIVATE_KEY_BYTES) {
    throw invalidArgument(`privateKey must be ${PRIVATE_KEY_BYTES} bytes for ${curve}`, "privateKey");
  }
  if (curve === "CURVE_P256") return p256Signer(privateKey);
  return curve === "CURVE_SECP256K1" ? secp256k1Signer(privateKey) : ed25519Signer(privateKey);
}

/**
 * P-256 ECDSA over the 32-byte digest (`prehash: false`), RFC 6979 deterministic nonces, low-S, with the
 * recovery id as `v` in the same layout as secp256k1: `r ‖ s` is the IEEE P1363 signature that WebCrypto and
 * node:crypto (`dsaEncoding: "ieee-p1363"`) verify.
 */
function p256Signer(privateKey: Uint8Array): PreparedSigner {
  if (!p256.utils.isValidSecretKey(privateKey)) {
    throw invalidArgument("privateKey is not a valid P-256 scalar", "privateKey");
  }
  const key = Uint8Array.from(privateKey);
  return {
    curve: "CURVE_P256",
    sign(input) {
      if (input.kind !== "digest") throw wrongInput("CURVE_P256", input.kind);
      return fromRecoveredSecp256k1(p256.sign(input.digest, key, { prehash: false, lowS: true, format: "recovered" }));
    },
  };
}

function secp256k1Signer(privateKey: Uint8Array): PreparedSigner {
  if (!secp256k1.utils.isValidSecretKey(privateKey)) {
    throw invalidArgument("privateKey is not a valid secp256k1 scalar", "privateKey");
  }
  const key = Uint8Array.from(privateKey);
  return {
    curve: "CURVE_SECP256K1",
    taproot: taprootSigner(key),
    sign(input) {
      switch (input.kind) {
        case "digest":
          return fromRecoveredSecp256k1(signSecp256k1Recovered(input.digest, key));
        case "typedData":
          return signTypedData(input.typedData, key, input.field);
        case "message":
          throw wrongInput("CURVE_SECP256K1", input.kind);
      }
    },
  };
}

// BIP340 lets the auxiliary nonce data be a constant when randomness is not at hand; a constant keeps taproot
// signatures deterministic, like the RFC 6979 ECDSA ones, so the same request always gives the same signature.
const ZERO_AUX_RAND = new Uint8Array(32);
const TAPROOT_DIGEST_BYTES = 32;

/** The taproot capability of a secp256k1 key. The tweak costs two point multiplications, so it waits for first use. */
function taprootSigner(key: Uint8Array): TaprootKeySigner {
  let tweaked: { key: Uint8Array; outputKey: Uint8Array } | undefined;
  const tweak = () => {
    if (!tweaked) {
      const tweakedKey = taprootTweakPrivKey(key);
      tweaked = { key: tweakedKey, outputKey: schnorr.getPublicKey(tweakedKey) };
    }
    return tweaked;
  };
  return {
    get outputKey() {
      return Uint8Array.from(tweak().outputKey);
    },
    sign(digest, field) {
      if (!(digest instanceof Uint8Array) || digest.length !== TAPROOT_DIGEST_BYTES) {
        throw invalidArgument(
          `${field} must be a ${TAPROOT_DIGEST_BYTES}-byte digest for a taproot (BIP340 Schnorr) signature`,
          field,
        );
      }
      return signSchnorr(digest, tweak().key, ZERO_AUX_RAND);
    },
  };
}

function ed25519Signer(seed: Uint8Array): PreparedSigner {
  const der = Buffer.alloc(ED25519_PKCS8_PREFIX.length + seed.length);
  der.set(ED25519_PKCS8_PREFIX);
  der.set(seed, ED25519_PKCS8_PREFIX.length);
  let keyObject: KeyObject;
  try {
    // Every 32-byte string is a valid Ed25519 seed, so this cannot refuse the key.
    keyObject = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  } finally {
    der.fill(0);
  }
  return {
    curve: "CURVE_ED25519",
    sign(input) {
      if (input.kind !== "message") throw wrongInput("CURVE_ED25519", input.kind);
      // A null algorithm is how node:crypto spells "the key's own scheme": pure Ed25519, no prehash.
      return fromSixtyFourByteSignature(nodeSign(null, input.message, keyObject));
    },
  };
}

function wrongInput(curve: SigningCurve, kind: SigningInput["kind"]): CustodyError {
  return invalidArgument(`a ${curve} key cannot sign a ${kind}; build the input with toSigningInput`);
}
