/**
 * The engine's bundle-signing key: the P-256 key that signs export bundles and import targets in place of
 * Turnkey's enclave quorum key. Clients check bundles against a pinned production key unless given
 * `dangerouslyOverrideSignerPublicKey`, so the public half is published ({@link EnclaveSigner.publicKey})
 * for hosts to hand to their clients.
 *
 * The key is the host's (`signerPrivateKey` engine option) or, when absent, generated once and kept in the
 * store sealed like every other secret, so a durable store signs with the same key across restarts.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import {
  createImportTarget,
  enclaveQuorumPublicKey,
  encryptExportBundle,
  type ImportTarget,
  type RandomBytes,
} from "../crypto/hpke/index.js";
import { CustodyError } from "../errors.js";
import type { Store } from "../storage/store.js";
import type { SecretVault } from "./secrets.js";

const SIGNER_KEY_RECORD = "enclave.signerKey";
const SIGNER_KEY_CONTEXT = "engine:enclaveSignerKey";
/** Seed bytes for noble's FIPS 186-5 A.2 key generation (16 over the group order: negligible bias). */
const KEY_SEED_LENGTH = 48;

/** Holds the bundle-signing key and signs with it; the private key never leaves this object. */
export class EnclaveSigner {
  #key: Uint8Array | undefined;
  #publicKey: string | undefined;
  #opening: Promise<void> | undefined;

  /**
   * @param hostKey The `signerPrivateKey` engine option, if any (validated here, copied).
   * @param random Where a generated key's bytes come from.
   * @throws CustodyError `INVALID_ARGUMENT` naming `signerPrivateKey` when it is not a P-256 private key.
   */
  constructor(
    hostKey: Uint8Array | undefined,
    private readonly random: RandomBytes,
  ) {
    if (hostKey !== undefined) {
      this.#publicKey = enclaveQuorumPublicKey(hostKey);
      this.#key = hostKey.slice();
    }
  }

  /**
   * Loads the stored key, or generates and stores one, in a transaction of its own (the vault must be
   * open). A host key needs neither. Idempotent; concurrent calls share one load.
   */
  open(store: Store, secrets: SecretVault): Promise<void> {
    if (this.#key !== undefined) return Promise.resolve();
    this.#opening ??= secrets
      .persistentKey(store, SIGNER_KEY_RECORD, SIGNER_KEY_CONTEXT, () => {
        const seed = this.random(KEY_SEED_LENGTH);
        const key = p256.utils.randomSecretKey(seed);
        seed.fill(0);
        return key;
      })
      .then(
        (key) => {
          this.#publicKey = enclaveQuorumPublicKey(key);
          this.#key = key;
        },
        (error: unknown) => {
          this.#opening = undefined;
          throw error;
        },
      );
    return this.#opening;
  }

  #ready(): Uint8Array {
    if (this.#key === undefined) throw new CustodyError("INTERNAL", "the enclave signer is used before it was opened");
    return this.#key;
  }

  /** The signer's public key: lowercase hex of the 65-byte uncompressed point, as clients compare it. */
  publicKey(): string {
    this.#ready();
    return this.#publicKey as string;
  }

  /** Seals `plaintext` to the client's `targetPublicKey` in a signed export bundle for `organizationId`. */
  exportBundle(input: {
    plaintext: Uint8Array;
    targetPublicKey: string;
    organizationId: string;
    randomBytes: RandomBytes;
  }): Promise<string> {
    return encryptExportBundle({ ...input, signerPrivateKey: this.#ready() });
  }

  /** A fresh import target for `userId` of `organizationId`, signed. Its private key is the caller's to seal. */
  importTarget(input: { organizationId: string; userId: string; randomBytes: RandomBytes }): ImportTarget {
    return createImportTarget({ ...input, signerPrivateKey: this.#ready() });
  }
}
