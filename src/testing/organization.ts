/**
 * `createTestOrganization`: an engine with one organization whose root user holds a P-256 API key, an
 * in-process `fetch` serving it at a base URL with no port (or a real loopback port), non-root users with
 * their policies, votes on pending activities, and snapshots to rewind it between tests.
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
import type { Activity } from "../model/wire-types.js";
import { MemoryStore, type MemoryStoreSnapshot } from "../storage/memory.js";
import { type ApiKeyPair, generateApiKeyPair } from "./api-keys.js";
import { type Voter, vote } from "./approvals.js";
import { createInProcessFetch, type FetchFunction, installGlobalFetch } from "./in-process-fetch.js";
import { type LoopbackServer, listenOnLoopback } from "./loopback.js";
import { createStampedClient, type StampedClient } from "./stamped-client.js";
import {
  type CreateTestUserOptions,
  createTestUser,
  type TestUser,
  type TurnkeyServerConfig,
  turnkeyConfigFor,
} from "./users.js";

/** The base URL a test organization answers at when none is given; `.test` never resolves (RFC 2606). */
export const DEFAULT_TEST_BASE_URL = "http://custodian.test";

/** The client address the in-process `fetch` presents to the HTTP adapter. */
const LOOPBACK_CLIENT_ADDRESS = "127.0.0.1";

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
  /** The root user's email (for email log-in and recovery flows). Default: none. */
  rootUserEmail?: string;
  /** The origin the in-process `fetch` answers. Default {@link DEFAULT_TEST_BASE_URL}. Not with `listen`. */
  baseUrl?: string;
  /**
   * Also serve the Activity API on a real port of 127.0.0.1 (the system picks it), closed by
   * {@link TestOrganization.close}; `baseUrl` is then `http://127.0.0.1:<port>`. For clients that fetch through
   * their own copy of `fetch`, such as `@turnkey/http`'s `TurnkeyClient`. Default false.
   */
  listen?: boolean;
  /**
   * Further engine options (webhooks, OIDC issuers, relying party, ...). `store` must be a `MemoryStore`
   * (snapshots need one); `clock` and `random` are overridden by `seed`.
   */
  engine?: Omit<CustodyEngineOptions, "store"> & {
    /** Default: a new MemoryStore. */
    store?: MemoryStore;
  };
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
  /** The origin {@link TestOrganization.fetch} serves (and, with `listen`, the loopback server). */
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
   * Creates a non-root user holding an API key, and the policies that govern it (each scoped to the user unless
   * it names its own `consensus`), as the root user; resolves with its id, key and ready clients. The root user's
   * own requests are settled by the root quorum before any policy is read, so policies are tested through such a
   * user:
   *
   * ```ts
   * const alice = await org.createUser({
   *   name: "alice",
   *   policies: [{ effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN'" }],
   * });
   * const client = new Turnkey(alice.turnkeyConfig).apiClient();
   * ```
   */
  createUser(options: CreateTestUserOptions): Promise<TestUser>;
  /**
   * Approves a pending activity as `voter` (default: the root user, whose approval meets the root quorum of 1).
   * `activity` is whatever the test holds: the activity, its id, the answer `@turnkey/sdk-server` resolved
   * with, or the error `@turnkey/http` or `@turnkey/viem` threw for an activity that needs consensus. Resolves
   * with the activity as the vote left it: `ACTIVITY_STATUS_COMPLETED`, with its result, once the consensus is met.
   */
  approve(activity: unknown, voter?: Voter): Promise<Activity>;
  /** Rejects a pending activity as `voter` (default: the root user); `activity` as {@link TestOrganization.approve}. */
  reject(activity: unknown, voter?: Voter): Promise<Activity>;
  /**
   * Installs {@link TestOrganization.fetch} as `globalThis.fetch`, where `@turnkey/sdk-server` (and so
   * `@turnkey/viem` over its client) sends requests; returns the function that puts the previous one back.
   */
  installGlobalFetch(): () => void;
  /** Saves the engine's state (every organization, key and activity). */
  snapshot(): Promise<TestOrganizationSnapshot>;
  /** Rewinds the engine to a snapshot, e.g. in `beforeEach`, so tests do not see each other's writes. */
  restore(snapshot: TestOrganizationSnapshot): Promise<void>;
  /** Stops the loopback server (with `listen`) and the engine's background work (the webhook dispatcher). */
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
        ...(options.rootUserEmail === undefined ? {} : { userEmail: options.rootUserEmail }),
        apiKeys: [{ apiKeyName: "root", publicKey: apiKey.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
    rootQuorumThreshold: 1,
  });
  const rootUserId = rootUserIds[0] as string;
  const root = engine.as({ userId: rootUserId });
  let server: LoopbackServer | undefined;
  if (options.listen) {
    if (options.baseUrl !== undefined)
      throw invalidArgument("a listening test organization answers at its loopback port, not at a baseUrl", "baseUrl");
    server = await listenOnLoopback(engine);
  }
  const baseUrl = server?.baseUrl ?? new URL(options.baseUrl ?? DEFAULT_TEST_BASE_URL).origin;
  const handle = createFetchHandler(engine);
  // In-process requests come from this machine: they are seen from loopback, so an IP allow-list that admits
  // 127.0.0.1 admits them, as it would a client of `listen: true`.
  const fetch = createInProcessFetch(baseUrl, (request) => handle(request, LOOPBACK_CLIENT_ADDRESS));
  const userContext = { engine, root, organizationId, baseUrl, fetch, clock, random };
  let closing: Promise<void> | undefined;
  return {
    engine,
    root,
    store,
    organizationId,
    rootUserId,
    apiKey,
    baseUrl,
    fetch,
    turnkeyConfig: turnkeyConfigFor(baseUrl, apiKey, organizationId),
    client: createStampedClient({ baseUrl, apiKey, organizationId, fetch, now: clock }),
    createUser: (userOptions) => createTestUser(userContext, userOptions),
    approve: (activity, voter = rootUserId) => vote(engine, organizationId, "approve", activity, voter),
    reject: (activity, voter = rootUserId) => vote(engine, organizationId, "reject", activity, voter),
    installGlobalFetch: () => installGlobalFetch(fetch),
    snapshot: async () => ({ store: await store.snapshot() }),
    restore: (snapshot) => store.restore(snapshot.store),
    close: () => {
      closing ??= (async () => {
        await server?.close();
        await engine.close();
      })();
      return closing;
    },
  };
}
