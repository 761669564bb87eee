/**
 * The typed data layer over the untyped storage port: one placement rule per collection (its listing scope
 * and unique index entries), declared once here, so handlers never spell an index key by hand.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { CustodyError, notFound } from "../common/errors.js";
import { normalizeAddressForLookup } from "../crypto/addresses/index.js";
import type { ListOptions, Placement, StoredRecord, StoreReader, StoreTransaction } from "../storage/store.js";
import { type CollectionName, type Collections, type PolicyRecord, ROOT_SCOPE } from "./records.js";

/**
 * The id of an address record: the organization and the address's lookup form (case-folded where the
 * encoding is case-insensitive, one form for every TON spelling), so a look-up is one `get`.
 */
export function addressRecordId(organizationId: string, address: string): string {
  return JSON.stringify([organizationId, normalizeAddressForLookup(address)]);
}

/** The id of an IP allow-list record: the organization's own (`publicKey` null) or one API key's. */
export function ipAllowlistRecordId(organizationId: string, publicKey: string | null): string {
  return JSON.stringify([organizationId, publicKey === null ? null : publicKey.toLowerCase()]);
}

/** Scope of engine-wide records. */
export const META_SCOPE = "meta";

/** Scope of the heads of the webhook delivery queues (and of the store-wide queue that preceded them). */
export const WEBHOOK_QUEUE_SCOPE = "webhookQueue";

/** Scope of the sends the status tracker watches (one list per store). */
export const PENDING_SENDS_SCOPE = "pendingSends";

/** Scope of the organizations whose wallet addresses the balance watcher watches (one list per store). */
export const BALANCE_WATCHES_SCOPE = "balanceWatches";

/** Scope of the balance watcher's per-chain cursors. */
export const BALANCE_CURSORS_SCOPE = "balanceCursors";

/** Scope of the confirmed balance updates of one chain still waiting for finality. */
export function pendingBalanceUpdatesScope(chain: string): string {
  return `pendingBalanceUpdates:${chain}`;
}

/** Unique index names and the keys they map from. */
export const INDEX = {
  activityByFingerprint: (fingerprint: string) => fingerprint,
  apiKeyByPublicKey: (organizationId: string, publicKey: string) => `${organizationId}:${publicKey.toLowerCase()}`,
  oauthProviderByClaims: (organizationId: string, issuer: string, audience: string, subject: string) =>
    JSON.stringify([organizationId, issuer, audience, subject]),
  authenticatorByCredentialId: (organizationId: string, credentialId: string) =>
    JSON.stringify([organizationId, credentialId]),
  walletByName: (organizationId: string, name: string) => JSON.stringify([organizationId, name]),
  /**
   * A wallet account is unique by (path, curve, address format), its path in canonical spelling: Turnkey's
   * cosmjs and bitcoin examples keep several formats at one path (UNCOMPRESSED and COSMOS, COMPRESSED and P2TR).
   */
  walletAccountByPathAndFormat: (walletId: string, path: string, curve: string, addressFormat: string) =>
    JSON.stringify([walletId, path, curve, addressFormat]),
  privateKeyByName: (organizationId: string, name: string) => JSON.stringify([organizationId, name]),
  tagByName: (organizationId: string, tagType: string, name: string) => JSON.stringify([organizationId, tagType, name]),
  // Ethereum addresses are hex, so any spelling names one contract; Solana program ids are case-sensitive base58.
  smartContractInterfaceByAddress: (organizationId: string, type: string, address: string) =>
    JSON.stringify([
      organizationId,
      type,
      type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM" ? address.toLowerCase() : address,
    ]),
  gasUsageConfigByOrganization: (organizationId: string) => organizationId,
  secretByName: (organizationId: string, name: string) => JSON.stringify([organizationId, name]),
  webhookQueueHeadByOrganization: (organizationId: string) => organizationId,
} as const;

/** The scope of credential-location records for one public key or credential id. */
export function credentialScope(kind: "apiKey" | "authenticator", credential: string): string {
  return `${kind}:${kind === "apiKey" ? credential.toLowerCase() : credential}`;
}

const PLACEMENT: { [C in CollectionName]: (record: Collections[C]) => Placement } = {
  organizations: (o) => ({ scope: o.parentOrganizationId ?? ROOT_SCOPE }),
  users: (u) => ({ scope: u.organizationId }),
  apiKeys: (k) => ({
    scope: k.userId,
    keys: { apiKeyByPublicKey: INDEX.apiKeyByPublicKey(k.organizationId, k.publicKey) },
  }),
  oauthProviders: (p) => ({
    scope: p.userId,
    keys: { oauthProviderByClaims: INDEX.oauthProviderByClaims(p.organizationId, p.issuer, p.audience, p.subject) },
  }),
  authenticators: (a) => ({
    scope: a.userId,
    keys: { authenticatorByCredentialId: INDEX.authenticatorByCredentialId(a.organizationId, a.credentialId) },
  }),
  credentialLocations: (l) => ({ scope: credentialScope(l.kind, l.credential) }),
  activities: (a) => ({
    scope: a.organizationId,
    keys: { activityByFingerprint: INDEX.activityByFingerprint(a.fingerprint) },
  }),
  policies: (p) => ({ scope: p.organizationId }),
  policyVersions: (v) => ({ scope: v.id }),
  mfaPolicies: (p) => ({ scope: p.userId }),
  sessionProfiles: (p) => ({ scope: p.organizationId }),
  policyEvaluations: (e) => ({ scope: e.activityId }),
  wallets: (w) => ({
    scope: w.organizationId,
    keys: { walletByName: INDEX.walletByName(w.organizationId, w.walletName) },
  }),
  walletAccounts: (a) => ({
    scope: a.walletId,
    keys: {
      walletAccountByPathAndFormat: INDEX.walletAccountByPathAndFormat(a.walletId, a.path, a.curve, a.addressFormat),
    },
  }),
  organizationAccounts: (r) => ({ scope: r.organizationId }),
  privateKeys: (k) => ({
    scope: k.organizationId,
    keys: { privateKeyByName: INDEX.privateKeyByName(k.organizationId, k.privateKeyName) },
  }),
  addresses: (a) => ({ scope: a.organizationId }),
  tags: (t) => ({
    scope: t.organizationId,
    keys: { tagByName: INDEX.tagByName(t.organizationId, t.tagType, t.tagName) },
  }),
  importTargets: (t) => ({ scope: t.organizationId }),
  webhookEndpoints: (e) => ({ scope: e.organizationId }),
  smartContractInterfaces: (i) => ({
    scope: i.organizationId,
    keys: {
      smartContractInterfaceByAddress: INDEX.smartContractInterfaceByAddress(
        i.organizationId,
        i.type,
        i.smartContractAddress,
      ),
    },
  }),
  oauth2Credentials: (c) => ({ scope: c.organizationId }),
  webhookDeliveries: (d) => ({ scope: d.organizationId }),
  webhookQueueEntries: (e) => ({ scope: e.organizationId }),
  webhookQueueHeads: (h) => ({
    scope: WEBHOOK_QUEUE_SCOPE,
    keys: { webhookQueueHeadByOrganization: INDEX.webhookQueueHeadByOrganization(h.organizationId) },
  }),
  webhookQueue: () => ({ scope: WEBHOOK_QUEUE_SCOPE }),
  webhookAttempts: (a) => ({ scope: a.eventId }),
  otps: (o) => ({ scope: o.organizationId }),
  verificationTokenUses: (u) => ({ scope: u.tokenId }),
  verifiedContacts: (c) => ({ scope: c.organizationId }),
  invitations: (i) => ({ scope: i.organizationId }),
  meta: () => ({ scope: META_SCOPE }),
  sendTransactionStatuses: (s) => ({ scope: s.organizationId }),
  pendingSends: () => ({ scope: PENDING_SENDS_SCOPE }),
  balanceWatches: () => ({ scope: BALANCE_WATCHES_SCOPE }),
  balanceCursors: () => ({ scope: BALANCE_CURSORS_SCOPE }),
  balanceUpdates: (u) => ({ scope: u.organizationId }),
  pendingBalanceUpdates: (p) => ({ scope: pendingBalanceUpdatesScope(p.chain) }),
  gasUsageConfigs: (c) => ({
    scope: c.organizationId,
    keys: { gasUsageConfigByOrganization: INDEX.gasUsageConfigByOrganization(c.organizationId) },
  }),
  gasSpends: (g) => ({ scope: g.billingOrganizationId }),
  secrets: (s) => ({
    scope: s.organizationId,
    keys: s.name === null ? undefined : { secretByName: INDEX.secretByName(s.organizationId, s.name) },
  }),
  // Scoped by user: a user's pending targets are found (and replaced) without reading the organization's.
  secretImportTargets: (t) => ({ scope: t.userId }),
  ipAllowlists: (l) => ({ scope: l.organizationId }),
};

/** The collections whose records name the organization they belong to. */
type OrganizationScopedCollection = {
  [C in CollectionName]: Collections[C] extends { organizationId: string } ? C : never;
}[CollectionName];

/** Typed reads. */
export class DataReader {
  /** See {@link remembered}: made on first use, as most views never need it. */
  #remembered: Map<string, unknown> | undefined;

  constructor(protected readonly raw: StoreReader) {}

  /**
   * A value derived from this view's records under `key`, computed once per view (one transaction's or one
   * read's): what two steps of one activity both need, such as the key `signWith` names. Kept on the view
   * rather than in a WeakMap keyed by it, whose entries would cost the collector work on every activity.
   */
  async remembered<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const known = this.#remembered?.get(key);
    if (known !== undefined) return known as T;
    const value = await compute();
    this.#remembered ??= new Map();
    this.#remembered.set(key, value);
    return value;
  }

  // get, lookup, list and put hand back the store's own promise rather than awaiting it in an async method of
  // their own: an activity makes dozens of these calls, and each extra async layer costs a promise and three
  // microtask turns. Every caller awaits them, so a store that throws instead of rejecting still rejects.
  get<C extends CollectionName>(collection: C, id: string): Promise<Collections[C] | undefined> {
    return this.raw.get(collection, id) as Promise<Collections[C] | undefined>;
  }

  /** Like {@link get}, but a missing record is `NOT_FOUND` naming `what` and the request field. */
  async require<C extends CollectionName>(
    collection: C,
    id: string,
    what: string,
    field?: string,
  ): Promise<Collections[C]> {
    const record = await this.get(collection, id);
    if (!record) throw notFound(what, id, field);
    return record;
  }

  /**
   * A record that belongs to `organizationId`, else `NOT_FOUND` naming `what` and the request field. Another
   * organization's record is reported exactly like a missing one, so ids cannot be probed across
   * organizations.
   */
  async requireInOrganization<C extends OrganizationScopedCollection>(
    collection: C,
    id: string,
    organizationId: string,
    what: string,
    field?: string,
  ): Promise<Collections[C]> {
    const record = await this.get(collection, id);
    if (!record || record.organizationId !== organizationId) throw notFound(what, id, field);
    return record;
  }

  lookup(index: keyof typeof INDEX, key: string): Promise<string | undefined> {
    return this.raw.lookup(index, key);
  }

  list<C extends CollectionName>(collection: C, scope: string, options?: ListOptions): Promise<Collections[C][]> {
    return this.raw.list(collection, scope, options) as unknown as Promise<Collections[C][]>;
  }

  /** Every record of a scope, in pages, for the few places that must see a whole (bounded) scope. */
  async listAll<C extends CollectionName>(collection: C, scope: string): Promise<Collections[C][]> {
    const out: Collections[C][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.list(collection, scope, { after, limit: 500 });
      out.push(...page);
      if (page.length < 500) return out;
      after = page[page.length - 1]?.id;
    }
  }
}

/** Typed writes inside one transaction. */
export class DataWriter extends DataReader {
  constructor(private readonly tx: StoreTransaction) {
    super(tx);
  }

  /** Puts a record. Putting a policy gives its organization's policies a new version (`PolicyVersionRecord`). */
  put<C extends CollectionName>(collection: C, record: Collections[C]): Promise<void> {
    if (collection === "policies") return this.putPolicy(record as PolicyRecord);
    return this.tx.put(collection, record as unknown as StoredRecord, PLACEMENT[collection](record));
  }

  /** Deletes a record. Deleting a policy gives its organization's policies a new version. */
  delete(collection: CollectionName, id: string): Promise<void> {
    if (collection === "policies") return this.deletePolicy(id);
    return this.tx.delete(collection, id);
  }

  // Every write of a policy goes through these two, whatever operation makes it, so no change to an organization's
  // policies can leave their version as it was and a decision judge by policies compiled before the change.
  private async putPolicy(record: PolicyRecord): Promise<void> {
    await this.tx.put("policies", record as unknown as StoredRecord, PLACEMENT.policies(record));
    await this.newPolicyVersion(record.organizationId);
  }

  private async deletePolicy(id: string): Promise<void> {
    const record = await this.get("policies", id);
    if (record === undefined) return;
    await this.tx.delete("policies", id);
    await this.newPolicyVersion(record.organizationId);
  }

  /**
   * A random token rather than a counter or the engine's ids: a counter bumped by a transaction that rolls back
   * would be bumped again to the same value over other policies, and ids from a seeded random source repeat
   * across engines (and stores) in one process, whose decisions share the compiled policies.
   */
  private newPolicyVersion(organizationId: string): Promise<void> {
    const record = { id: organizationId, version: randomUUID() };
    return this.tx.put("policyVersions", record, PLACEMENT.policyVersions(record));
  }
}

/** Thrown when a write would break an invariant the handler should have checked: a bug, not bad input. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CustodyError("INTERNAL", message);
}
