/**
 * The engine's webhook machinery in one place: the outbox store decorator, the signing key, the
 * dispatcher, and the host-level reads of delivery state. `EngineCore` holds one of these.
 *
 * @module
 */

import { invalidArgument } from "../common/errors.js";
import type { SecretVault } from "../keys/secrets.js";
import { DataReader } from "../model/data.js";
import type { Clock, RandomSource } from "../model/random.js";
import type { WebhookAttemptRecord, WebhookDeliveryRecord } from "../model/records.js";
import type { Store } from "../storage/store.js";
import { WebhookDispatcher } from "./dispatcher.js";
import { OutboxStore } from "./outbox-store.js";
import { DEFAULT_DELIVERY_SETTINGS, type WebhookDeliverySettings } from "./retry.js";
import { type WebhookJwks, WebhookSigner } from "./signer.js";
import type { WebhookUrlRules } from "./url-policy.js";

/** The webhook part of the engine options. */
export interface WebhookOptions {
  /** The 32-byte Ed25519 secret key deliveries are signed with; generated and kept sealed when absent. */
  signingKey?: Uint8Array;
  /** The URL rules, shared with the operations that set webhook URLs. */
  rules: WebhookUrlRules;
  /** Delivery and retry settings; each member defaults separately. */
  delivery?: Partial<WebhookDeliverySettings>;
  /** Told about unexpected dispatcher failures (a failing store). */
  onError?: (error: unknown) => void;
}

/** What the webhook machinery needs from the engine. */
export interface WebhookDependencies {
  /** The host's store, undecorated. */
  readonly store: Store;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly newId: () => string;
  readonly secrets: SecretVault;
}

/** Options of a delivery listing. */
export interface WebhookDeliveryListOptions {
  /** Only deliveries queued after this event id. */
  after?: string;
  /** At most this many (default 100). */
  limit?: number;
}

function deliverySettings(given: Partial<WebhookDeliverySettings> = {}): WebhookDeliverySettings {
  const settings = { ...DEFAULT_DELIVERY_SETTINGS };
  for (const key of Object.keys(DEFAULT_DELIVERY_SETTINGS) as (keyof WebhookDeliverySettings)[]) {
    const value = given[key];
    if (value === undefined) continue;
    const minimum = key === "initialBackoffMs" || key === "maxBackoffMs" ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < minimum) {
      throw invalidArgument(
        `webhookDelivery.${key} must be an integer of at least ${minimum}`,
        `webhookDelivery.${key}`,
        {
          reason: "INVALID_WEBHOOK_SETTING",
        },
      );
    }
    settings[key] = value;
  }
  if (given.concurrencyPerOrganization === undefined) {
    settings.concurrencyPerOrganization = Math.max(1, Math.floor(settings.concurrency / 4));
  }
  if (given.leaseMs === undefined) {
    settings.leaseMs = Math.max(DEFAULT_DELIVERY_SETTINGS.leaseMs, 3 * settings.timeoutMs);
  } else if (settings.leaseMs <= settings.timeoutMs) {
    // A lease shorter than an attempt would let a second engine send a delivery still in flight.
    throw invalidArgument(
      "webhookDelivery.leaseMs must be longer than webhookDelivery.timeoutMs",
      "webhookDelivery.leaseMs",
      { reason: "INVALID_WEBHOOK_SETTING" },
    );
  }
  return settings;
}

export class Webhooks {
  /** The host's store wrapped so that activity writes queue their deliveries in the same transaction. */
  readonly store: Store;
  readonly #deps: WebhookDependencies;
  readonly #signer: WebhookSigner;
  readonly #dispatcher: WebhookDispatcher;

  constructor(deps: WebhookDependencies, options: WebhookOptions) {
    this.#deps = deps;
    this.#signer = new WebhookSigner(options.signingKey, deps.random);
    this.#dispatcher = new WebhookDispatcher({
      store: deps.store,
      clock: deps.clock,
      random: deps.random,
      signer: this.#signer,
      openSigner: () => this.#openSigner(),
      settings: deliverySettings(options.delivery),
      rules: options.rules,
      ...(options.onError ? { onError: options.onError } : {}),
    });
    this.store = new OutboxStore(deps.store, {
      context: () => ({ now: deps.clock(), newId: deps.newId }),
      committed: () => this.#dispatcher.wake(),
    });
  }

  async #openSigner(): Promise<void> {
    await this.#deps.secrets.open(this.#deps.store);
    await this.#signer.open(this.#deps.store, this.#deps.secrets);
  }

  /** Starts delivering, resuming what an earlier engine left pending. Idempotent. */
  start(): void {
    this.#dispatcher.start();
  }

  /** Stops delivering; attempts in flight are abandoned unrecorded and resume with the next engine. */
  close(): Promise<void> {
    return this.#dispatcher.close();
  }

  /** The JWKS receivers verify deliveries with. */
  async jwks(): Promise<WebhookJwks> {
    await this.#openSigner();
    return this.#signer.jwks();
  }

  /** Deliveries owed to an organization's endpoints and legacy webhook URL, oldest first. */
  listDeliveries(organizationId: string, options: WebhookDeliveryListOptions = {}): Promise<WebhookDeliveryRecord[]> {
    const limit = options.limit ?? 100;
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw invalidArgument("limit must be a positive integer", "limit", { reason: "INVALID_PAGINATION" });
    }
    return this.#deps.store.read((reader) =>
      new DataReader(reader).list("webhookDeliveries", organizationId, {
        limit,
        ...(options.after !== undefined ? { after: options.after } : {}),
      }),
    );
  }

  /** Every attempt made for one event, in order. */
  listAttempts(eventId: string): Promise<WebhookAttemptRecord[]> {
    return this.#deps.store.read((reader) => new DataReader(reader).listAll("webhookAttempts", eventId));
  }
}
