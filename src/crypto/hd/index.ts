/**
 * Pure hierarchical-deterministic key derivation: BIP39 mnemonics and seeds, BIP32 paths, BIP32
 * (secp256k1) and SLIP-10 (ed25519) derivation. No storage, clock or global randomness.
 *
 * @module
 */
export {
  childNode,
  type DeriveKeyPairOptions,
  type DeriveOptions,
  deriveKeyPair,
  deriveNode,
  type HdNode,
  type HdNodeCache,
  type KeyPair,
  masterNode,
  nodeKeyPair,
  resolveDerivationPath,
  wipeNode,
} from "./derive.js";
export {
  assertValidMnemonic,
  generateMnemonic,
  MNEMONIC_LENGTHS,
  type MnemonicLength,
  mnemonicToSeed,
  type RandomBytes,
  validateMnemonic,
} from "./mnemonic.js";
export {
  type DerivationPath,
  formatDerivationPath,
  HARDENED_OFFSET,
  MAX_PATH_DEPTH,
  type PathSegment,
  parseDerivationPath,
} from "./path.js";
