/**
 * In-memory caches of derived key material, so that signing and account creation do not re-run PBKDF2 and
 * the HD chain on every call. Never persisted; bounded (least recently used entries go first, and their
 * bytes are wiped); entries of deleted wallets and keys are dropped explicitly.
 *
 * @module
 */
import type { HdNode, HdNodeCache } from "../crypto/hd/index.js";
import { wipeNode } from "../crypto/hd/index.js";
import type { PreparedSigner } from "../crypto/sign/index.js";

/** One wallet's seed and the HD nodes derived from it so far. */
export interface WalletKeys {
  seed: Uint8Array;
  nodes: HdNodeCache & { values(): Iterable<HdNode> };
}

class Lru<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly capacity: number,
    private readonly onEvict: (value: V) => void,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Re-insert to mark as most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.onEvict(value);
  }
}

export class KeyCache {
  private readonly wallets: Lru<WalletKeys>;
  private readonly signers: Lru<PreparedSigner>;

  constructor(options: { wallets?: number; signers?: number } = {}) {
    this.wallets = new Lru(options.wallets ?? 256, (keys) => {
      keys.seed.fill(0);
      for (const node of keys.nodes.values()) wipeNode(node);
    });
    this.signers = new Lru(options.signers ?? 4096, () => undefined);
  }

  /** The wallet's cached keys, or those `load` makes (then cached). */
  async wallet(walletId: string, load: () => Promise<Uint8Array>): Promise<WalletKeys> {
    const cached = this.wallets.get(walletId);
    if (cached) return cached;
    const keys: WalletKeys = { seed: await load(), nodes: new Map<string, HdNode>() };
    this.wallets.set(walletId, keys);
    return keys;
  }

  /** The prepared signer of an account or private key, or the one `prepare` makes (then cached). */
  async signer(ownerId: string, prepare: () => Promise<PreparedSigner>): Promise<PreparedSigner> {
    const cached = this.signers.get(ownerId);
    if (cached) return cached;
    const signer = await prepare();
    this.signers.set(ownerId, signer);
    return signer;
  }

  /** Forgets everything cached for a wallet, an account or a private key. */
  forget(id: string): void {
    this.wallets.delete(id);
    this.signers.delete(id);
  }
}
