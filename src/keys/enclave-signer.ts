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
import {
  createImportTarget,
  enclaveQuorumPublicKey,
  encryptExportBundle,
  type ImportTarget,
  type RandomBytes,
} from "../crypto/hpke/index.js";
import type { Store } from "../storage/store.js";
import type { SecretVault } from "./secrets.js";
import { StoredP256Key } from "./stored-p256-key.js";

const SIGNER_KEY = { record: "enclave.signerKey", context: "engine:enclaveSignerKey", name: "enclave signer" };

/** Holds the bundle-signing key and signs with it; the private key never leaves this object. */
export class EnclaveSigner {
  readonly #key: StoredP256Key;
  #publicKey: string | undefined;

  /**
   * @param hostKey The `signerPrivateKey` engine option, if any (validated here, copied).
   * @param random Where a generated key's bytes come from.
   * @throws CustodyError `INVALID_ARGUMENT` naming `signerPrivateKey` when it is not a P-256 private key.
   */
  constructor(hostKey: Uint8Array | undefined, random: RandomBytes) {
    if (hostKey !== undefined) this.#publicKey = enclaveQuorumPublicKey(hostKey);
    this.#key = new StoredP256Key(SIGNER_KEY, hostKey, random);
  }

  /**
   * Loads the stored key, or generates and stores one, in a transaction of its own (the vault must be
   * open). A host key needs neither. Idempotent; concurrent calls share one load.
   */
  async open(store: Store, secrets: SecretVault): Promise<void> {
    this.#publicKey ??= enclaveQuorumPublicKey(await this.#key.open(store, secrets));
  }

  #ready(): Uint8Array {
    return this.#key.key;
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
