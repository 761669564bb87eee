/**
 * BIP32 private derivation on secp256k1 (CKDpriv), with public keys computed only when asked for.
 *
 * A hardened child needs only its parent's private key and chain code; a public key (a point multiplication,
 * the one expensive step) is needed for a non-hardened child's parent and for the account's leaf. Along
 * `m/44'/60'/0'/0/0` that is 2 multiplications where a library that computes every node's public key (and
 * its fingerprint) does 6, and deriving a fresh wallet's first account is most of `create_wallet`.
 * The public key is kept as a point, so both SEC1 encodings come from it without decompressing (a square
 * root) the compressed form. `@scure/bip32` remains the reference in the tests (BIP32 test vectors too).
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { CustodyError } from "../../common/errors.js";
import { utf8ToBytes } from "../bytes.js";

const { Point } = secp256k1;
const Fn = Point.Fn;
const MASTER_HMAC_KEY = utf8ToBytes("Bitcoin seed");
const HARDENED_OFFSET = 0x80000000;
const MAX_CHILD_NUMBER = 0xffffffff;

type AffinePoint = InstanceType<typeof Point>;

/** A BIP32 extended private key on secp256k1. Treat it as secret; {@link Secp256k1Node.wipe} zeroes it. */
export class Secp256k1Node {
  #privateKey: Uint8Array | null;
  #point: AffinePoint | undefined;

  constructor(
    privateKey: Uint8Array,
    readonly chainCode: Uint8Array,
  ) {
    this.#privateKey = privateKey;
  }

  /** The 32-byte secret scalar (big-endian), or null once wiped. */
  get privateKey(): Uint8Array | null {
    return this.#privateKey;
  }

  /** The secret scalar; `INTERNAL` once the node was wiped (an evicted cache entry must never be used). */
  secret(): Uint8Array {
    if (this.#privateKey === null) throw new CustodyError("INTERNAL", "a derived secp256k1 node has no private key");
    return this.#privateKey;
  }

  /** The public point, computed once (constant-time, blinded multiplication) and kept. */
  get point(): AffinePoint {
    this.#point ??= Point.BASE.multiply(Fn.fromBytes(this.secret()));
    return this.#point;
  }

  /** SEC1 compressed public key (33 bytes). */
  get publicKey(): Uint8Array {
    return this.point.toBytes(true);
  }

  /** Zeroes the secret bytes and forgets them (the public point is not secret and stays). */
  wipe(): void {
    this.#privateKey?.fill(0);
    this.#privateKey = null;
    this.chainCode.fill(0);
  }
}

/** The master node of `seed` (length checked by the caller). */
export function secp256k1MasterNode(seed: Uint8Array): Secp256k1Node {
  const digest = hmac(sha512, MASTER_HMAC_KEY, seed);
  const privateKey = digest.slice(0, 32);
  const chainCode = digest.slice(32);
  digest.fill(0);
  if (!Fn.isValidNot0(Fn.fromBytes(privateKey, true))) {
    // Probability about 2^-127: BIP32 says such a seed yields no wallet.
    throw new CustodyError("INVALID_ARGUMENT", "this seed gives an invalid BIP32 master key", { field: "seed" });
  }
  return new Secp256k1Node(privateKey, chainCode);
}

/**
 * Child number `childNumber` of `parent` (hardened when at least 2^31). As BIP32 prescribes, an invalid child
 * (IL at least the curve order, or a zero key; probability about 2^-127) moves on to the next child number.
 */
export function secp256k1ChildNode(parent: Secp256k1Node, childNumber: number): Secp256k1Node {
  for (let number = childNumber; ; number++) {
    if (number > MAX_CHILD_NUMBER) {
      throw new CustodyError("INVALID_ARGUMENT", `no valid BIP32 child at or after ${childNumber}`, { field: "path" });
    }
    const data = new Uint8Array(37);
    if (number >= HARDENED_OFFSET) data.set(parent.secret(), 1);
    else data.set(parent.publicKey, 0);
    new DataView(data.buffer).setUint32(33, number, false);
    const digest = hmac(sha512, parent.chainCode, data);
    data.fill(0);
    const tweak = Fn.fromBytes(digest.subarray(0, 32), true);
    const chainCode = digest.slice(32);
    digest.fill(0);
    if (Fn.isValid(tweak)) {
      const child = Fn.create(Fn.fromBytes(parent.secret()) + tweak);
      if (Fn.isValidNot0(child)) return new Secp256k1Node(Fn.toBytes(child), chainCode);
    }
    chainCode.fill(0);
  }
}
