/**
 * Key derivation along a BIP32 path: BIP32 for secp256k1 (`bip32-secp256k1.ts`), SLIP-10 for ed25519.
 *
 * The walk is split into nodes so the engine can keep intermediate nodes (a wallet's `m/44'/60'/0'/0`
 * serves every Ethereum account below it) in an {@link HdNodeCache} of its own; this module never keeps
 * anything between calls.
 *
 * @module
 */
import { CustodyError, invalidArgument } from "../../common/errors.js";
import { type Curve, type HdCurve, isHdCurve } from "../addresses/formats.js";
import type { Secp256k1PublicKey } from "../addresses/public-key.js";
import { type Secp256k1Node, secp256k1ChildNode, secp256k1MasterNode } from "./bip32-secp256k1.js";
import {
  type DerivationPath,
  formatDerivationPath,
  HARDENED_OFFSET,
  type PathSegment,
  parseDerivationPath,
} from "./path.js";
import { type Ed25519ExtendedKey, ed25519HardenedChild, ed25519MasterKey, ed25519PublicKey } from "./slip10-ed25519.js";

/** A derived key pair. `publicKey` is SEC1 compressed (33 bytes) for secp256k1, raw 32 bytes for ed25519. */
export interface KeyPair {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  /**
   * On secp256k1, the public key in both SEC1 forms, taken from the derived point: address encoders use it
   * instead of parsing (and decompressing) `publicKey` again.
   */
  secp256k1?: Secp256k1PublicKey;
}

/** Derivation policy. */
export interface DeriveOptions {
  /**
   * Refuse non-hardened ed25519 levels with `INVALID_ARGUMENT` instead of deriving them as hardened.
   * Off by default, so Turnkey's documented paths such as `m/44'/501'/0'/0` work (docs/spec/addresses.md §5, decision
   * 4).
   */
  strictEd25519Paths?: boolean;
}

/** An extended private key somewhere in a wallet's tree. Treat it as secret. */
export type HdNode =
  | { readonly curve: "CURVE_SECP256K1"; readonly key: Secp256k1Node }
  | ({ readonly curve: "CURVE_ED25519" } & Ed25519ExtendedKey);

/**
 * Where the engine keeps nodes between derivations. A `Map<string, HdNode>` fits. One cache must only
 * ever hold nodes of one seed: keys are the curve and the canonical path, not the wallet.
 */
export interface HdNodeCache {
  get(key: string): HdNode | undefined;
  set(key: string, node: HdNode): unknown;
}

const MIN_SEED_BYTES = 16;
const MAX_SEED_BYTES = 64;

function assertHdCurve(curve: Curve, field: string): asserts curve is HdCurve {
  if (!isHdCurve(curve)) {
    throw new CustodyError("UNIMPLEMENTED", `wallet accounts cannot be derived on ${curve} yet`, { field });
  }
}

/** The master node of `seed` (16 to 64 bytes, BIP32's range) on `curve`. */
export function masterNode(curve: HdCurve, seed: Uint8Array): HdNode {
  if (seed.length < MIN_SEED_BYTES || seed.length > MAX_SEED_BYTES) {
    throw invalidArgument(`seed must be ${MIN_SEED_BYTES} to ${MAX_SEED_BYTES} bytes, got ${seed.length}`, "seed");
  }
  return curve === "CURVE_SECP256K1" ? { curve, key: secp256k1MasterNode(seed) } : { curve, ...ed25519MasterKey(seed) };
}

/**
 * Applies the curve's path rules: on ed25519 every level must be hardened, so a non-hardened level is
 * derived as hardened, or refused under `strictEd25519Paths` (naming `field`). The result is the path
 * actually derived, and its canonical spelling is a sound cache key.
 */
export function resolveDerivationPath(
  curve: HdCurve,
  path: DerivationPath,
  options: DeriveOptions = {},
  field = "path",
): DerivationPath {
  if (curve !== "CURVE_ED25519") return path;
  return path.map((segment, position) => {
    if (segment.hardened) return segment;
    if (options.strictEd25519Paths) {
      throw invalidArgument(
        `${field} level ${position + 1} (${segment.index}) is not hardened; ed25519 (SLIP-10) only derives hardened levels`,
        field,
      );
    }
    return { index: segment.index, hardened: true };
  });
}

/** The child of `parent` at `segment`. On ed25519 the segment must be hardened (see {@link resolveDerivationPath}). */
export function childNode(parent: HdNode, segment: PathSegment): HdNode {
  if (parent.curve === "CURVE_SECP256K1") {
    // An invalid child key moves on to the next index, as BIP32 prescribes (see bip32-secp256k1.ts).
    return {
      curve: parent.curve,
      key: secp256k1ChildNode(parent.key, segment.index + (segment.hardened ? HARDENED_OFFSET : 0)),
    };
  }
  if (!segment.hardened) {
    throw invalidArgument(`ed25519 (SLIP-10) only derives hardened levels, got ${segment.index}`, "path");
  }
  return { curve: parent.curve, ...ed25519HardenedChild(parent, segment.index) };
}

/** The key pair of a node: fresh copies, so the caller may wipe them without harming a cached node. */
export function nodeKeyPair(node: HdNode): KeyPair {
  if (node.curve === "CURVE_SECP256K1") {
    const { point } = node.key;
    const compressed = point.toBytes(true);
    return {
      privateKey: node.key.secret().slice(),
      publicKey: compressed,
      secp256k1: { compressed: compressed.slice(), uncompressed: point.toBytes(false) },
    };
  }
  return { privateKey: node.privateKey.slice(), publicKey: ed25519PublicKey(node.privateKey) };
}

/**
 * Zeroes a node's secret bytes. The engine calls it on nodes it evicts from its cache; derivation calls
 * it on the intermediate nodes it does not cache.
 */
export function wipeNode(node: HdNode): void {
  if (node.curve === "CURVE_SECP256K1") {
    node.key.wipe();
  } else {
    node.privateKey.fill(0);
    node.chainCode.fill(0);
  }
}

function cacheKey(curve: HdCurve, path: DerivationPath): string {
  return `${curve}:${formatDerivationPath(path)}`;
}

/**
 * The node at `path` (already resolved) below the master node of `seed`. With a `cache`, the walk starts
 * from the deepest cached ancestor, and the master and every intermediate node it computes are stored;
 * the leaf is not, since account leaves are rarely shared. Without one, intermediate nodes are wiped
 * as soon as their child exists.
 */
export function deriveNode(seed: Uint8Array, curve: HdCurve, path: DerivationPath, cache?: HdNodeCache): HdNode {
  let start = 0;
  let node: HdNode | undefined;
  for (let depth = path.length; cache !== undefined && depth >= 0; depth--) {
    node = cache.get(cacheKey(curve, path.slice(0, depth)));
    if (node !== undefined) {
      start = depth;
      break;
    }
  }
  if (node === undefined) {
    node = masterNode(curve, seed);
    cache?.set(cacheKey(curve, []), node);
  }
  for (let depth = start; depth < path.length; depth++) {
    const parent = node;
    node = childNode(parent, path[depth] as PathSegment);
    if (cache === undefined) wipeNode(parent);
    else if (depth + 1 < path.length) cache.set(cacheKey(curve, path.slice(0, depth + 1)), node);
  }
  return node;
}

/** Options of {@link deriveKeyPair}. */
export interface DeriveKeyPairOptions extends DeriveOptions {
  /** The request field the path came from, named in errors (default `path`). */
  field?: string;
  /** Field naming the curve in errors (default `curve`). */
  curveField?: string;
  /** Nodes of this seed kept by the engine. */
  cache?: HdNodeCache;
}

/**
 * Derives the key pair at `path` (BIP32 notation) from a BIP39 `seed` on `curve`. Errors name the
 * request fields: a malformed path or a non-hardened ed25519 level in strict mode is `INVALID_ARGUMENT`,
 * `CURVE_P256` (docs/spec/addresses.md names no HD scheme for it) is `UNIMPLEMENTED`.
 */
export function deriveKeyPair(
  seed: Uint8Array,
  curve: Curve,
  path: string,
  options: DeriveKeyPairOptions = {},
): KeyPair {
  const field = options.field ?? "path";
  assertHdCurve(curve, options.curveField ?? "curve");
  const resolved = resolveDerivationPath(curve, parseDerivationPath(path, field), options, field);
  const node = deriveNode(seed, curve, resolved, options.cache);
  const pair = nodeKeyPair(node);
  // Without a cache the leaf is ours alone; with one it may be the engine's cached node.
  if (options.cache === undefined) wipeNode(node);
  return pair;
}
