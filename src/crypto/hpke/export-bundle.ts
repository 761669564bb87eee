/**
 * Export bundles: the `exportBundle` of `export_wallet`, `export_private_key` and `export_wallet_account`
 * results, which `@turnkey/crypto`'s `decryptExportBundle` opens (docs/spec/wire-protocol.md §3).
 *
 * @module
 */
import { bytesToHex } from "../bytes.js";
import { signEnclaveBundle } from "./enclave-bundle.js";
import { hpkeSealToTarget, type RandomBytes } from "./suite.js";

/** Input of {@link encryptExportBundle}. */
export interface EncryptExportBundleInput {
  /**
   * What to export: the mnemonic's UTF-8 bytes for a wallet (clients read it back with
   * `returnMnemonic: true`), the raw private key bytes for a key (a 32-byte ed25519 seed for `keyFormat:
   * "SOLANA"` clients).
   */
  plaintext: Uint8Array;
  /** The client's P-256 key as hex, 33-byte compressed or 65-byte uncompressed. */
  targetPublicKey: string;
  /** The organization the exported object belongs to; clients refuse a bundle signed for another one. */
  organizationId: string;
  /** The engine's 32-byte P-256 bundle-signing key. */
  signerPrivateKey: Uint8Array;
  /** Randomness for the ephemeral HPKE key; defaults to the system CSPRNG. */
  randomBytes?: RandomBytes;
}

/**
 * Encrypts `plaintext` to `targetPublicKey` and wraps it in a signed enclave bundle whose data is
 * `{"encappedPublic":<65-byte uncompressed hex>,"ciphertext":<hex>,"organizationId":…}`.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `parameters.targetPublicKey` for a bad receiver key, or
 *   `signerPrivateKey` for a bad signing key.
 */
export async function encryptExportBundle(input: EncryptExportBundleInput): Promise<string> {
  const { enc, ciphertext } = await hpkeSealToTarget(input.plaintext, input.targetPublicKey, input.randomBytes);
  return signEnclaveBundle({
    data: { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext), organizationId: input.organizationId },
    signerPrivateKey: input.signerPrivateKey,
  });
}
