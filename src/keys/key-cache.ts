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
  nodes: HdNodeCache & { values(): Iterable<HdNode>; readonly size: number };
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

  values(): Iterable<V> {
    return this.entries.values();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Options of {@link KeyCache}: how many entries each cache keeps before the least recently used go. */
export interface KeyCacheOptions {
  /** Wallets whose seed is kept (default 256). */
  wallets?: number;
  /** Intermediate HD nodes kept per wallet (default 256): enough for every usual path's shared ancestors. */
  nodesPerWallet?: number;
  /** Prepared signers of accounts and private keys (default 4,096). */
  signers?: number;
  /** Told of every {@link KeyCache.forget}, so copies kept elsewhere (signer threads) go too. */
  onForget?: (id: string) => void;
}

export class KeyCache {
  private readonly wallets: Lru<WalletKeys>;
  private readonly signers: Lru<PreparedSigner>;
  private readonly nodesPerWallet: number;
  private readonly onForget: ((id: string) => void) | undefined;

  constructor(options: KeyCacheOptions = {}) {
    this.nodesPerWallet = options.nodesPerWallet ?? 256;
    this.onForget = options.onForget;
    this.wallets = new Lru(options.wallets ?? 256, (keys) => {
      keys.seed.fill(0);
      for (const node of keys.nodes.values()) wipeNode(node);
    });
    this.signers = new Lru(options.signers ?? 4096, () => undefined);
  }

  /**
   * Loads in flight, by key: concurrent misses for one wallet or signer share one load instead of each
   * caching its own copy, whose eviction would wipe key bytes another caller is still using.
   */
  private readonly loading = new Map<string, Promise<unknown>>();

  private async load<V>(
    key: string,
    cached: V | undefined,
    make: () => Promise<V>,
    keep: (value: V) => void,
  ): Promise<V> {
    if (cached !== undefined) return cached;
    const pending = this.loading.get(key) as Promise<V> | undefined;
    if (pending) return pending;
    const loading = make().then((value) => {
      keep(value);
      return value;
    });
    this.loading.set(key, loading);
    try {
      return await loading;
    } finally {
      this.loading.delete(key);
    }
  }

  /** The wallet's cached keys, or those `load` makes (then cached). */
  wallet(walletId: string, load: () => Promise<Uint8Array>): Promise<WalletKeys> {
    return this.load(
      `wallet:${walletId}`,
      this.wallets.get(walletId),
      // Bounded: a request deriving thousands of distinct deep paths must not keep their nodes for good.
      async (): Promise<WalletKeys> => ({ seed: await load(), nodes: new Lru<HdNode>(this.nodesPerWallet, wipeNode) }),
      (keys) => this.wallets.set(walletId, keys),
    );
  }

  /** The prepared signer of an account or private key, or the one `prepare` makes (then cached). */
  signer(ownerId: string, prepare: () => Promise<PreparedSigner>): Promise<PreparedSigner> {
    return this.load(`signer:${ownerId}`, this.signers.get(ownerId), prepare, (signer) =>
      this.signers.set(ownerId, signer),
    );
  }

  /** Forgets everything cached for a wallet, an account or a private key. */
  forget(id: string): void {
    this.wallets.delete(id);
    this.signers.delete(id);
    this.onForget?.(id);
  }
}
