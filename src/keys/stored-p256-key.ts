/**
 * A P-256 private key of the engine's own (the bundle signer's, the token signer's): the host's, or generated
 * once and kept in the store sealed like every other secret, so a durable store signs with the same key across
 * restarts. Loading is idempotent and shared by concurrent callers; a failed load can be tried again.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { CustodyError } from "../common/errors.js";
import type { Store } from "../storage/store.js";
import type { SecretVault } from "./secrets.js";

/** Seed bytes for noble's FIPS 186-5 A.2 key generation (16 over the group order: negligible bias). */
const KEY_SEED_LENGTH = 48;

/** Where a stored key lives: its record id and the sealing context binding it to that use. */
export interface StoredKeyPlace {
  readonly record: string;
  readonly context: string;
  /** What the key is for, in the error when it is used before {@link StoredP256Key.open}. */
  readonly name: string;
}

export class StoredP256Key {
  #key: Uint8Array | undefined;
  #opening: Promise<Uint8Array> | undefined;

  /** `hostKey` must already be validated by the caller, which names its own option in the error. */
  constructor(
    private readonly place: StoredKeyPlace,
    hostKey: Uint8Array | undefined,
    private readonly random: (length: number) => Uint8Array,
  ) {
    if (hostKey !== undefined) this.#key = hostKey.slice();
  }

  /** Loads the stored key, or generates and stores one (the vault must be open); resolves with the key. */
  open(store: Store, secrets: SecretVault): Promise<Uint8Array> {
    if (this.#key !== undefined) return Promise.resolve(this.#key);
    this.#opening ??= secrets
      .persistentKey(store, this.place.record, this.place.context, () => {
        const seed = this.random(KEY_SEED_LENGTH);
        const key = p256.utils.randomSecretKey(seed);
        seed.fill(0);
        return key;
      })
      .then(
        (key) => {
          this.#key = key;
          return key;
        },
        (error: unknown) => {
          this.#opening = undefined;
          throw error;
        },
      );
    return this.#opening;
  }

  /** The key, once loaded. */
  get key(): Uint8Array {
    if (this.#key === undefined) {
      throw new CustodyError("INTERNAL", `the ${this.place.name} is used before it was opened`);
    }
    return this.#key;
  }
}
