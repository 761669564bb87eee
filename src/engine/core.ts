/**
 * The engine's shared state: the (outbox-wrapped) store, clock, randomness, ids and services, resolved once
 * from the options. Every `CustodyEngine` view made by `as()` shares one core.
 *
 * @module
 */
import { Oauth2Exchange, type Oauth2Providers } from "../auth/oauth2.js";
import { type OidcIssuers, OidcVerifier } from "../auth/oidc.js";
import { type RelyingPartyOptions, WebauthnRelyingParty } from "../auth/relying-party.js";
import { TokenSigner } from "../auth/token-signer.js";
import { AssetRegistry, type TokensOption } from "../chains/assets.js";
import { BalanceWatcher } from "../chains/balance-watcher.js";
import { GasStation, type GasStationOptions } from "../chains/gas-station.js";
import { ChainRegistry, type ChainsOption } from "../chains/registry.js";
import { SendStatusTracker } from "../chains/tracker.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { EngineServices } from "../contract/services.js";
import { EnclaveSigner } from "../keys/enclave-signer.js";
import { KeyCache } from "../keys/key-cache.js";
import { SecretVault } from "../keys/secrets.js";
import {
  assertSignerThreadNice,
  assertSignerThreads,
  DEFAULT_SIGNER_THREAD_NICE,
  SignerPool,
} from "../keys/signer-pool/pool.js";
import { MemoryOutbox, type MessageSender } from "../messages/outbox.js";
import { IdGenerator } from "../model/ids.js";
import { type Clock, type RandomSource, systemClock, systemRandom } from "../model/random.js";
import { MemoryStore } from "../storage/memory.js";
import type { Store } from "../storage/store.js";
import type { WebhookDeliverySettings } from "../webhooks/retry.js";
import { Webhooks } from "../webhooks/service.js";
import { ActingUsers } from "./pipeline/acting-users.js";
import { KeyedLock } from "./pipeline/keyed-lock.js";
import type { PipelineCore } from "./pipeline/submission.js";
import { OrganizationTrees } from "./pipeline/trees.js";

/** Options of {@link CustodyEngine}. Every member is optional. */
export interface CustodyEngineOptions {
  /** Where state lives. Default: a new {@link MemoryStore}. */
  store?: Store;
  /** Milliseconds since the epoch. Inject a fixed or stepping clock for deterministic tests. */
  clock?: Clock;
  /** Source of every random byte (ids, keys). Inject `createSeededRandom(seed)` for deterministic tests. */
  random?: RandomSource;
  /**
   * Oldest accepted `timestampMs`, in ms before now. Default one hour, as Turnkey's FAQ states; Turnkey's
   * offline-signing example speaks of 24 hours, so a team testing such a flow may widen it.
   */
  maxRequestAgeMs?: number;
  /** Furthest accepted `timestampMs`, in ms after now. Default five minutes. */
  maxClockSkewMs?: number;
  /**
   * The 32-byte key-encryption key that wraps the data key sealing every secret at rest. Required for a
   * durable store (`FileStore`): without it the engine refuses to open (`FAILED_PRECONDITION`,
   * `KEY_ENCRYPTION_KEY_MISSING`) unless {@link ephemeralKeyEncryptionKey} is set. When omitted on a memory
   * store, a key is generated for this process.
   */
  keyEncryptionKey?: Uint8Array;
  /**
   * Generate a key-encryption key for this process even on a durable store. Its secrets then cannot be read
   * by any later process: for throw-away data directories only.
   */
  ephemeralKeyEncryptionKey?: boolean;
  /** Refuse non-hardened ed25519 derivation path levels (default: derive them as hardened). */
  strictEd25519Paths?: boolean;
  /**
   * The WebAuthn relying party of passkeys: `rpId` (default `localhost`) and the allowed `origins` (default
   * `["http://localhost"]`). An organization's `FEATURE_NAME_WEBAUTHN_ORIGINS`, or its parent's, replaces
   * the origins for its passkeys.
   */
  webauthn?: RelyingPartyOptions;
  /**
   * OIDC issuers whose tokens may register OAuth providers, by `iss`: `{ jwks }` (a JSON Web Key Set) or
   * `{ jwksUri }` (fetched and cached), optionally with the `audiences` (client ids) accepted. Tokens of
   * other issuers are refused.
   */
  oidcIssuers?: OidcIssuers;
  /**
   * The OAuth 2.0 token endpoints `oauth2_authenticate` may reach, by provider (`OAUTH2_PROVIDER_X`,
   * `OAUTH2_PROVIDER_DISCORD`), with optional time and size bounds. The endpoint's answer must carry an
   * `id_token` from an issuer in `oidcIssuers`. A provider not named here cannot get a credential.
   */
  oauth2Providers?: Oauth2Providers;
  /**
   * The 32-byte P-256 key that signs export bundles and import targets (Turnkey's enclave quorum key). When
   * omitted, one is generated on first use and kept in the store, sealed. Clients verify bundles against
   * {@link CustodyEngine.signerPublicKey}, passed as their `dangerouslyOverrideSignerPublicKey`.
   */
  signerPrivateKey?: Uint8Array;
  /**
   * The 32-byte Ed25519 secret key that signs webhook deliveries. When omitted, one is generated on first
   * use and kept in the store, sealed. Receivers get the public key from {@link CustodyEngine.webhookJwks}
   * (served over HTTP at `GET /public/v1/discovery/webhooks/jwks`).
   */
  webhookSigningKey?: Uint8Array;
  /**
   * Let webhooks reach `http://127.0.0.1`, `http://localhost` and other loopback receivers, and destinations
   * at private or link-local addresses. For tests and local development only: the default, like the hosted
   * service, accepts only `https` URLs of public destinations.
   */
  allowInsecureWebhooks?: boolean;
  /**
   * Webhook delivery settings (slots in all and per receiving organization, per-attempt timeout, attempts,
   * backoff); each defaults separately.
   */
  webhookDelivery?: Partial<WebhookDeliverySettings>;
  /** Told about unexpected failures of the webhook dispatcher (a failing store), for the host's logs. */
  onWebhookError?: (error: unknown) => void;
  /**
   * The 32-byte P-256 key that signs session JWTs and OTP verification tokens. When omitted, one is
   * generated on first use and kept in the store, sealed. Clients verify tokens against
   * {@link CustodyEngine.tokenSignerPublicKey}.
   */
  sessionSigningKey?: Uint8Array;
  /**
   * Where one-time codes and email-auth links go: the host's mail or SMS service. Default: an in-memory
   * {@link MemoryOutbox}, read with {@link CustodyEngine.outbox} (nothing leaves the process).
   */
  messageSender?: MessageSender;
  /**
   * Send webhook deliveries from this engine (default `true`). Turn it off for an engine that only reads a
   * store (a tool inspecting a data directory). Several engines sharing a store may all dispatch: each takes
   * deliveries under a lease (`webhookDelivery.leaseMs`), so a delivery is sent by one of them at a time.
   * Deliveries are still queued by activities; an engine that dispatches sends them.
   */
  deliverWebhooks?: boolean;
  /**
   * The chains `eth_send_transaction`, `eth_send_raw_transaction`, `sol_send_transaction`, `get_nonces` and
   * the balance queries (`get_wallet_address_balances`, `list_supported_assets`) may reach, by CAIP-2 id: a JSON-RPC URL, or a {@link ChainBackend} object (`request(method, params)`)
   * for an in-process devnet or limits of your own (`httpChainBackend(url, { timeoutMs, maxAnswerBytes })`).
   *
   * ```ts
   * new CustodyEngine({ chains: { "eip155:31337": "http://127.0.0.1:8545" } });
   * ```
   *
   * Nothing else is reachable: a send to a chain not named here is `FAILED_PRECONDITION`
   * (`CHAIN_NOT_CONFIGURED`). Default: none.
   */
  chains?: ChainsOption;
  /**
   * The tokens the balance queries report on each chain of `chains`, beside its native coin: ERC-20 contracts
   * on EVM chains, SPL mints (Token or Token-2022) on Solana, at most 50 per chain. Give an address alone, or
   * `{ address, symbol?, name?, decimals? }`; what is left out is read from the chain when first asked for
   * (an SPL mint has no symbol to read: give it).
   *
   * ```ts
   * new CustodyEngine({
   *   chains: { "eip155:31337": "http://127.0.0.1:8545" },
   *   tokens: { "eip155:31337": ["0x5FbDB2315678afecb367f032d93F642f64180aa3"] },
   * });
   * ```
   */
  tokens?: TokensOption;
  /**
   * A sponsor for `eth_send_transaction` with `sponsor: true` (and for batches of several calls): a funded
   * key of the host's that pays the gas, as the hosted service's gas station does. The user's account
   * delegates by EIP-7702 to a small batch executor the sponsor deploys on first use, and the calls run in
   * one transaction; `get_gas_usage` counts what the sponsor pays against the limits
   * `upsert_gas_usage_config` sets. Without it such sends are refused (`GAS_STATION_UNAVAILABLE`) once
   * policies allowed them. See docs/guides/chains.md.
   *
   * ```ts
   * new CustodyEngine({
   *   chains: { "eip155:31337": "http://127.0.0.1:8545" },
   *   gasStation: { sponsorPrivateKey: process.env.SPONSOR_KEY! },
   * });
   * ```
   */
  gasStation?: GasStationOptions;
  /**
   * How often the send-status tracker asks the chains whether broadcast transactions have landed (ms).
   * Default 500.
   */
  sendStatusPollIntervalMs?: number;
  /**
   * How often the balance watcher reads the EVM chains of `chains` for transfers of subscribed organizations'
   * wallet addresses (`BALANCE_CONFIRMED_UPDATES`, `BALANCE_FINALIZED_UPDATES`), in ms. Default 2000. Nothing
   * is read from a chain while no endpoint subscribes to balance updates.
   */
  balancePollIntervalMs?: number;
  /** Told about failures of the send-status tracker and the balance watcher (an unreachable chain RPC), for the host's logs. */
  onChainError?: (error: unknown) => void;
  /**
   * Sign raw payloads (`sign_raw_payload`, `sign_raw_payloads`) on this many `worker_threads` (1 to 64)
   * instead of the calling thread, so concurrent signing activities use several cores. The calling thread
   * still parses, decides and stores; a thread receives only the checked, hashed inputs and the key sealed as
   * the store holds it, and keeps its own key cache. Signatures are the same either way. Threads start at the
   * first signature and stop at {@link CustodyEngine.close}. Default: none (sign on the calling thread).
   */
  signerThreads?: number;
  /**
   * The nice value of the signer threads on Linux, from 0 (the calling thread's priority) to 19. Default 10: the
   * calling thread feeds every signer thread, so when the threads outnumber the cores it must not be the one that
   * waits (two signer threads on two cores sign 5–8% more this way). On a machine whose cores other busy
   * processes share, that also leaves the signers a smaller part of them: 0 keeps them level. Other platforms
   * cannot set one thread's priority and ignore it.
   */
  signerThreadNice?: number;
}

/** A duration option: a whole number of milliseconds, at least one; `fallback` when absent. */
function positiveMs(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw invalidArgument(`${option} must be a whole number of milliseconds, at least 1`, option);
  }
  return value;
}

export class EngineCore implements PipelineCore {
  /** The host's store wrapped by the webhook outbox: every write of the engine goes through it. */
  readonly store: Store;
  /** The store as the host gave it. */
  readonly hostStore: Store;
  readonly webhooks: Webhooks;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
  readonly services: EngineServices;
  readonly fingerprints = new KeyedLock();
  readonly trees = new OrganizationTrees();
  /** The organizations of users in-process callers act as (see `acting-users.ts`). */
  readonly actingUsers = new ActingUsers();
  /** Settles broadcast transactions as their chains include or fail them. */
  readonly sendTracker: SendStatusTracker;
  /** Reports balance changes of subscribed organizations' wallet addresses. */
  readonly balanceWatcher: BalanceWatcher;
  readonly #deliverWebhooks: boolean;
  /** Set when a durable store came without a key-encryption key and no ephemeral one was asked for. */
  private readonly missingKeyEncryptionKey: boolean;

  constructor(options: CustodyEngineOptions) {
    this.hostStore = options.store ?? new MemoryStore();
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? systemRandom;
    this.ids = new IdGenerator(this.clock, this.random);
    if (options.keyEncryptionKey !== undefined && options.keyEncryptionKey.length !== 32) {
      throw invalidArgument("keyEncryptionKey must be 32 bytes", "keyEncryptionKey");
    }
    this.missingKeyEncryptionKey =
      options.keyEncryptionKey === undefined &&
      this.hostStore.durable === true &&
      options.ephemeralKeyEncryptionKey !== true;
    if (options.signerThreads !== undefined) assertSignerThreads(options.signerThreads);
    if (options.signerThreadNice !== undefined) assertSignerThreadNice(options.signerThreadNice);
    const secrets = new SecretVault(
      options.keyEncryptionKey ?? this.random(32),
      this.random,
      options.keyEncryptionKey === undefined,
    );
    const strictEd25519Paths = options.strictEd25519Paths ?? false;
    const signers =
      options.signerThreads === undefined
        ? undefined
        : new SignerPool({
            threads: options.signerThreads,
            nice: options.signerThreadNice ?? DEFAULT_SIGNER_THREAD_NICE,
            sealingKeys: () => secrets.sealingKeys(),
            strictEd25519Paths,
          });
    const chains = new ChainRegistry(options.chains);
    this.services = {
      maxRequestAgeMs: positiveMs(options.maxRequestAgeMs, 60 * 60 * 1000, "maxRequestAgeMs"),
      maxClockSkewMs: positiveMs(options.maxClockSkewMs, 5 * 60 * 1000, "maxClockSkewMs"),
      secrets,
      // What the threads cache is forgotten with what this one does (a deleted wallet, account or key).
      keys: new KeyCache(signers ? { onForget: (id) => signers.forget(id) } : {}),
      ...(signers ? { signers } : {}),
      strictEd25519Paths,
      webauthn: new WebauthnRelyingParty(options.webauthn),
      oidc: new OidcVerifier(options.oidcIssuers),
      oauth2: new Oauth2Exchange(options.oauth2Providers, this.random),
      enclaveSigner: new EnclaveSigner(options.signerPrivateKey, this.random),
      webhookUrls: { allowInsecure: options.allowInsecureWebhooks ?? false },
      tokens: new TokenSigner(options.sessionSigningKey, this.random),
      messages: options.messageSender ?? new MemoryOutbox(),
      chains,
      assets: new AssetRegistry(chains, options.tokens),
      ...(options.gasStation ? { gasStation: new GasStation(options.gasStation) } : {}),
    };
    this.webhooks = new Webhooks(
      {
        store: this.hostStore,
        clock: this.clock,
        random: this.random,
        newId: () => this.ids.next(),
        secrets: this.services.secrets,
      },
      {
        rules: this.services.webhookUrls,
        ...(options.webhookSigningKey ? { signingKey: options.webhookSigningKey } : {}),
        ...(options.webhookDelivery ? { delivery: options.webhookDelivery } : {}),
        ...(options.onWebhookError ? { onError: options.onWebhookError } : {}),
      },
    );
    this.store = this.webhooks.store;
    this.#deliverWebhooks = options.deliverWebhooks ?? true;
    this.sendTracker = new SendStatusTracker({
      store: this.store,
      chains: this.services.chains,
      clock: this.clock,
      intervalMs: positiveMs(options.sendStatusPollIntervalMs, 500, "sendStatusPollIntervalMs"),
      ...(options.onChainError ? { onError: options.onChainError } : {}),
    });
    this.balanceWatcher = new BalanceWatcher({
      store: this.store,
      chains: this.services.chains,
      assets: this.services.assets,
      clock: this.clock,
      intervalMs: positiveMs(options.balancePollIntervalMs, 2000, "balancePollIntervalMs"),
      ...(options.onChainError ? { onError: options.onChainError } : {}),
    });
  }

  private lastDefaultTimestamp = 0;

  /**
   * The `timestampMs` of an in-process call that gave none: the clock, but strictly increasing, so two
   * calls are two activities even within one millisecond (or under a fixed test clock). A caller who
   * passes `timestampMs` gets the wire's idempotency exactly.
   */
  defaultTimestamp(): string {
    this.lastDefaultTimestamp = Math.max(this.clock(), this.lastDefaultTimestamp + 1);
    return String(this.lastDefaultTimestamp);
  }

  /**
   * Opens what must be open before any operation (the secret vault's data key, then the bundle signer's
   * key) and starts the webhook dispatcher, which resumes deliveries an earlier engine left pending, and the
   * send-status tracker, which resumes watching the sends an earlier engine broadcast, and the balance watcher.
   */
  async ready(): Promise<void> {
    if (this.missingKeyEncryptionKey) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        "a durable store needs the keyEncryptionKey engine option: secrets sealed under a key generated for this process could not be read after a restart (pass ephemeralKeyEncryptionKey: true for throw-away data)",
        { field: "keyEncryptionKey", reason: "KEY_ENCRYPTION_KEY_MISSING" },
      );
    }
    await this.services.secrets.open(this.store);
    await this.services.enclaveSigner.open(this.store, this.services.secrets);
    await this.services.tokens.open(this.store, this.services.secrets);
    await this.services.oauth2.open(this.store, this.services.secrets);
    if (this.#deliverWebhooks) this.webhooks.start();
    this.sendTracker.start();
    this.balanceWatcher.start();
  }
}
