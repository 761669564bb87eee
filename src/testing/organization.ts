/**
 * `createTestOrganization`: an engine with one organization whose root user holds a P-256 API key, an
 * in-process `fetch` serving it at a base URL with no port, and snapshots to rewind it between tests.
 *
 * @module
 */

import { invalidArgument } from "../common/errors.js";
import type { CustodyEngineOptions } from "../engine/core.js";
import { CustodyEngine } from "../engine/engine.js";
import { createFetchHandler } from "../http/fetch.js";
import {
  type Clock,
  createSeededRandom,
  createSteppingClock,
  type RandomSource,
  systemClock,
} from "../model/random.js";
import { MemoryStore, type MemoryStoreSnapshot } from "../storage/memory.js";
import { type ApiKeyPair, generateApiKeyPair } from "./api-keys.js";
import { createInProcessFetch, type FetchFunction, installGlobalFetch } from "./in-process-fetch.js";
import { createStampedClient, type StampedClient } from "./stamped-client.js";

/** The base URL a test organization answers at when none is given; `.test` never resolves (RFC 2606). */
export const DEFAULT_TEST_BASE_URL = "http://custodian.test";

/** Where a seeded engine's clock starts when `startMs` is not given: 2025-01-01T00:00:00Z. */
export const DEFAULT_SEEDED_START_MS = Date.UTC(2025, 0, 1);

/** Options of {@link createTestOrganization}. Every member is optional. */
export interface TestOrganizationOptions {
  /**
   * Makes everything reproducible: randomness is `createSeededRandom(seed)` and the clock steps by 1 ms
   * from `startMs` at each reading, so the same calls give the same ids, keys, addresses and signatures.
   */
  seed?: string;
  /**
   * Start of the seeded clock (default {@link DEFAULT_SEEDED_START_MS}). The official clients stamp bodies
   * with the wall clock, which the engine checks against its own: pass `Date.now()` when they drive a
   * seeded organization.
   */
  startMs?: number;
  /** Default `"Test organization"`. */
  organizationName?: string;
  /** Default `"root"`. */
  rootUserName?: string;
  /** The origin the in-process `fetch` answers. Default {@link DEFAULT_TEST_BASE_URL}. */
  baseUrl?: string;
  /**
   * Further engine options (webhooks, OIDC issuers, relying party, ...). `store` must be a `MemoryStore`
   * (snapshots need one); `clock` and `random` are overridden by `seed`.
   */
  engine?: Omit<CustodyEngineOptions, "store"> & {
    /** Default: a new MemoryStore. */
    store?: MemoryStore;
  };
}

/** Settings for `new Turnkey({...})` of `@turnkey/sdk-server`, bound to the root user's API key. */
export interface TurnkeyServerConfig {
  /** The test organization's base URL. */
  apiBaseUrl: string;
  /** The root user's API public key. */
  apiPublicKey: string;
  /** The root user's API private key. */
  apiPrivateKey: string;
  /** The test organization. */
  defaultOrganizationId: string;
}

/** An engine state saved by {@link TestOrganization.snapshot}. */
export interface TestOrganizationSnapshot {
  /** The store's state. */
  readonly store: MemoryStoreSnapshot;
}

/** What {@link createTestOrganization} returns. */
export interface TestOrganization {
  /** The engine (host-level calls: `createOrganization`, `explainActivity`, `signerPublicKey`, ...). */
  engine: CustodyEngine;
  /** The engine acting as the root user: in-process typed methods (`root.createWallet({...})`). */
  root: CustodyEngine;
  /** The engine's store. */
  store: MemoryStore;
  /** The organization created. */
  organizationId: string;
  /** Its root user, holding {@link TestOrganization.apiKey}. */
  rootUserId: string;
  /** The root user's P-256 API key. */
  apiKey: ApiKeyPair;
  /** The origin {@link TestOrganization.fetch} serves. */
  baseUrl: string;
  /**
   * A `fetch` serving the Activity API at `baseUrl` in-process (no port); other URLs go to the global
   * `fetch` as it was at creation. Hand it to a client that takes a fetch, or install it as the global.
   */
  fetch: FetchFunction;
  /** `@turnkey/sdk-server` settings for the root user: `new Turnkey(org.turnkeyConfig).apiClient()`. */
  turnkeyConfig: TurnkeyServerConfig;
  /** Stamped HTTP requests as the root user, through {@link TestOrganization.fetch}. */
  client: StampedClient;
  /**
   * Installs {@link TestOrganization.fetch} as `globalThis.fetch`, where `@turnkey/sdk-server` (and so
   * `@turnkey/viem` over its client) sends requests; returns the function that puts the previous one back.
   */
  installGlobalFetch(): () => void;
  /** Saves the engine's state (every organization, key and activity). */
  snapshot(): Promise<TestOrganizationSnapshot>;
  /** Rewinds the engine to a snapshot, e.g. in `beforeEach`, so tests do not see each other's writes. */
  restore(snapshot: TestOrganizationSnapshot): Promise<void>;
  /** Stops the engine's background work (the webhook dispatcher). */
  close(): Promise<void>;
}

/**
 * Creates an engine with one organization and a root user holding a fresh P-256 API key, ready for the
 * official clients in-process:
 *
 * ```ts
 * const org = await createTestOrganization();
 * const restore = org.installGlobalFetch();
 * const client = new Turnkey(org.turnkeyConfig).apiClient(); // @turnkey/sdk-server
 * await client.getWhoami();
 * ```
 */
export async function createTestOrganization(options: TestOrganizationOptions = {}): Promise<TestOrganization> {
  const store = options.engine?.store ?? new MemoryStore();
  if (!(store instanceof MemoryStore))
    throw invalidArgument("the store of a test organization must be a MemoryStore", "engine.store");
  let clock: Clock = options.engine?.clock ?? systemClock;
  let random: RandomSource | undefined = options.engine?.random;
  if (options.seed !== undefined) {
    clock = createSteppingClock(options.startMs ?? DEFAULT_SEEDED_START_MS);
    random = createSeededRandom(options.seed);
  }
  const engine = new CustodyEngine({ ...options.engine, store, clock, ...(random ? { random } : {}) });
  const apiKey = generateApiKeyPair(random);
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: options.organizationName ?? "Test organization",
    rootUsers: [
      {
        userName: options.rootUserName ?? "root",
        apiKeys: [{ apiKeyName: "root", publicKey: apiKey.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
    rootQuorumThreshold: 1,
  });
  const rootUserId = rootUserIds[0] as string;
  const baseUrl = new URL(options.baseUrl ?? DEFAULT_TEST_BASE_URL).origin;
  const fetch = createInProcessFetch(baseUrl, createFetchHandler(engine));
  return {
    engine,
    root: engine.as({ userId: rootUserId }),
    store,
    organizationId,
    rootUserId,
    apiKey,
    baseUrl,
    fetch,
    turnkeyConfig: {
      apiBaseUrl: baseUrl,
      apiPublicKey: apiKey.apiPublicKey,
      apiPrivateKey: apiKey.apiPrivateKey,
      defaultOrganizationId: organizationId,
    },
    client: createStampedClient({ baseUrl, apiKey, organizationId, fetch, now: clock }),
    installGlobalFetch: () => installGlobalFetch(fetch),
    snapshot: async () => ({ store: await store.snapshot() }),
    restore: (snapshot) => store.restore(snapshot.store),
    close: () => engine.close(),
  };
}
