/**
 * The import handshake (`init_import_wallet` / `init_import_private_key`, then `import_wallet` /
 * `import_private_key`): the engine hands out a signed target key, the client's `encryptWalletToBundle` or
 * `encryptPrivateKeyToBundle` seals the secret to it, and the engine opens the result here.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { invalidArgument } from "../../common/errors.js";
import { bytesToHex, parseHex } from "../bytes.js";
import { signEnclaveBundle } from "./enclave-bundle.js";
import { assertP256PrivateKey, p256PublicKeyOf, toUncompressedP256 } from "./p256-keys.js";
import { defaultRandomBytes, hpkeOpenWithPrivateKey, type RandomBytes } from "./suite.js";

/** Where the client's sealed secret sits in both import intents. */
const ENCRYPTED_BUNDLE_FIELD = "parameters.encryptedBundle";

/**
 * Seed bytes for noble's FIPS 186-5 A.2 key generation: 16 bytes over the 32-byte group order, so the
 * reduction's bias is negligible and no rejection loop is needed.
 */
const TARGET_KEY_SEED_LENGTH = 48;

/** Input of {@link createImportTarget}. */
export interface CreateImportTargetInput {
  /** Signed into the bundle; the client refuses a target for another organization. */
  organizationId: string;
  /** Signed into the bundle; the client refuses a target for another user. */
  userId: string;
  /** The engine's 32-byte P-256 bundle-signing key. */
  signerPrivateKey: Uint8Array;
  /** Randomness for the target key; defaults to the system CSPRNG. */
  randomBytes?: RandomBytes;
}

/** Output of {@link createImportTarget}. */
export interface ImportTarget {
  /** The signed bundle for `init_import_*` results (`importBundle`). */
  importBundle: string;
  /**
   * The 32-byte private key the client's bundle will be sealed to. Seal it at rest until the matching
   * import arrives, then discard it: it is single-use.
   */
  targetPrivateKey: Uint8Array;
}

/**
 * Creates a fresh P-256 import target and signs `{"targetPublic","organizationId","userId"}` into an enclave
 * bundle. `targetPublic` is the 65-byte uncompressed key because the clients feed it verbatim into the HPKE
 * KEM context and associated data, where RFC 9180 and the engine both use the uncompressed form.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `signerPrivateKey` when it is not a P-256 private key.
 */
export function createImportTarget(input: CreateImportTargetInput): ImportTarget {
  const randomBytes = input.randomBytes ?? defaultRandomBytes;
  const seed = randomBytes(TARGET_KEY_SEED_LENGTH);
  const targetPrivateKey = p256.utils.randomSecretKey(seed);
  seed.fill(0);
  const importBundle = signEnclaveBundle({
    data: {
      targetPublic: bytesToHex(p256PublicKeyOf(targetPrivateKey)),
      organizationId: input.organizationId,
      userId: input.userId,
    },
    signerPrivateKey: input.signerPrivateKey,
  });
  return { importBundle, targetPrivateKey };
}

/** Input of {@link decryptImportBundle}. */
export interface DecryptImportBundleInput {
  /** The intent's `encryptedBundle`: JSON `{"encappedPublic":<hex>,"ciphertext":<hex>}`. */
  bundle: string;
  /** The private key {@link createImportTarget} returned for this import. */
  targetPrivateKey: Uint8Array;
}

/**
 * Opens a client import bundle and returns the plaintext: the mnemonic's UTF-8 bytes for
 * `encryptWalletToBundle`, the raw private key bytes for `encryptPrivateKeyToBundle`.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `parameters.encryptedBundle` (or the member at fault,
 *   `parameters.encryptedBundle.encappedPublic` / `.ciphertext`) when the bundle is malformed, was sealed to
 *   another target, or was altered; naming `targetPrivateKey` when that is not a P-256 private key.
 */
export async function decryptImportBundle(input: DecryptImportBundleInput): Promise<Uint8Array> {
  assertP256PrivateKey(input.targetPrivateKey, "targetPrivateKey");
  const members = parseBundleJson(input.bundle);
  const encField = `${ENCRYPTED_BUNDLE_FIELD}.encappedPublic`;
  const ciphertextField = `${ENCRYPTED_BUNDLE_FIELD}.ciphertext`;
  const enc = toUncompressedP256(parseHex(stringMember(members, "encappedPublic", encField), encField), encField);
  const ciphertext = parseHex(stringMember(members, "ciphertext", ciphertextField), ciphertextField);
  const plaintext = await hpkeOpenWithPrivateKey(enc, ciphertext, input.targetPrivateKey);
  if (plaintext === undefined) {
    throw invalidArgument(
      `${ENCRYPTED_BUNDLE_FIELD} does not decrypt with this import target: it was sealed to another target key or altered`,
      ENCRYPTED_BUNDLE_FIELD,
    );
  }
  return plaintext;
}

function parseBundleJson(bundle: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bundle);
  } catch {
    throw invalidArgument(`${ENCRYPTED_BUNDLE_FIELD} is not JSON`, ENCRYPTED_BUNDLE_FIELD);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidArgument(`${ENCRYPTED_BUNDLE_FIELD} must be a JSON object`, ENCRYPTED_BUNDLE_FIELD);
  }
  return parsed as Record<string, unknown>;
}

function stringMember(members: Record<string, unknown>, name: string, field: string): string {
  const value = members[name];
  if (typeof value !== "string") throw invalidArgument(`${field} must be a hex string`, field);
  return value;
}
