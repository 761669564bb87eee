/**
 * The secret vault: every mnemonic and private key is sealed (AES-256-GCM under a data key wrapped by the
 * host's key-encryption key) before it reaches a store, so no adapter ever holds a plaintext secret. The
 * wrapped data key lives in the store itself, so a durable store reopened with the same key-encryption
 * key reads its secrets back, and one opened with another key fails clearly at the first operation.
 *
 * @module
 */

import { CustodyError, isCustodyError } from "../common/errors.js";
import { createSealer, type Sealer } from "../crypto/seal/index.js";
import { DataWriter } from "../model/data.js";
import type { RandomSource } from "../model/random.js";
import type { Store } from "../storage/store.js";

const DATA_KEY_RECORD = "sealing.dataKey";

export class SecretVault {
  private sealer: Sealer | undefined;
  private opening: Promise<void> | undefined;

  constructor(
    private keyEncryptionKey: Uint8Array,
    private readonly random: RandomSource,
    /** True when the key-encryption key was generated for this process, so no earlier data can open. */
    private readonly ephemeralKey: boolean,
  ) {}

  /**
   * Loads the store's data key, or creates and records one, in a transaction of its own (so a later
   * rollback can never strand a key that the store does not hold). Idempotent; concurrent calls share it.
   */
  open(store: Store): Promise<void> {
    this.opening ??= store
      .transaction(async (tx) => {
        const data = new DataWriter(tx);
        const record = await data.get("meta", DATA_KEY_RECORD);
        if (!record) {
          const sealer = createSealer({ keyEncryptionKey: this.keyEncryptionKey, randomBytes: this.random });
          await data.put("meta", { id: DATA_KEY_RECORD, value: sealer.wrappedDataKey });
          return sealer;
        }
        try {
          return createSealer({
            keyEncryptionKey: this.keyEncryptionKey,
            wrappedDataKey: record.value,
            randomBytes: this.random,
          });
        } catch (error) {
          if (isCustodyError(error) && this.ephemeralKey) {
            throw new CustodyError(
              "FAILED_PRECONDITION",
              "this store holds secrets sealed under a key-encryption key; pass it as the keyEncryptionKey engine option",
              { reason: "KEY_ENCRYPTION_KEY_MISSING" },
            );
          }
          throw error;
        }
      })
      .then(
        (sealer) => {
          this.sealer = sealer;
        },
        (error: unknown) => {
          this.opening = undefined;
          throw error;
        },
      );
    return this.opening;
  }

  /**
   * Re-wraps the data key under `newKeyEncryptionKey` and records it, in one transaction. Sealed records
   * are untouched: they stay under the same data key, which is what makes rotation cheap. From then on the
   * store opens only with the new key.
   */
  async rotate(store: Store, newKeyEncryptionKey: Uint8Array): Promise<void> {
    await this.open(store);
    const sealer = this.ready();
    const wrappedDataKey = sealer.rewrap(newKeyEncryptionKey);
    await store.transaction(async (tx) => {
      await new DataWriter(tx).put("meta", { id: DATA_KEY_RECORD, value: wrappedDataKey });
    });
    this.sealer = createSealer({ keyEncryptionKey: newKeyEncryptionKey, wrappedDataKey, randomBytes: this.random });
    this.keyEncryptionKey = newKeyEncryptionKey.slice();
  }

  /**
   * A key the engine keeps for itself (the export-bundle signer, the webhook signer): loaded from the
   * `meta` record `recordId` and unsealed, or made by `generate`, sealed and stored there, in a transaction
   * of its own so a later rollback cannot lose it. The vault must be open.
   */
  async persistentKey(
    store: Store,
    recordId: string,
    context: string,
    generate: () => Uint8Array,
  ): Promise<Uint8Array> {
    return store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      const record = await data.get("meta", recordId);
      if (record) return this.unseal(record.value, context);
      const key = generate();
      await data.put("meta", { id: recordId, value: this.seal(key, context) });
      return key;
    });
  }

  /**
   * What opens sealed records in another thread (the signer pool's): a copy of the key-encryption key, for
   * the caller to hand over and wipe, and the data key wrapped under it. The vault must be open.
   */
  sealingKeys(): { keyEncryptionKey: Uint8Array; wrappedDataKey: string } {
    const { wrappedDataKey } = this.ready();
    return { keyEncryptionKey: this.keyEncryptionKey.slice(), wrappedDataKey };
  }

  private ready(): Sealer {
    if (!this.sealer) throw new CustodyError("INTERNAL", "the secret vault is used before it was opened");
    return this.sealer;
  }

  /** Seals `plaintext` for the record named by `context` (e.g. `wallet:<id>:mnemonic`). */
  seal(plaintext: Uint8Array, context: string): string {
    return this.ready().seal(plaintext, context);
  }

  /** Opens a value sealed for `context`. */
  unseal(sealed: string, context: string): Uint8Array {
    return this.ready().open(sealed, context);
  }
}
