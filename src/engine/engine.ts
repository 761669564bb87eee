/**
 * `CustodyEngine`: one typed method per operation of the table, the host bootstrap, and the raw entry
 * point the HTTP adapter uses.
 *
 * @module
 */
import * as v from "valibot";
import { authenticate, type RequestStamps, recordSignCount } from "../auth/authenticate.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { Operation } from "../contract/operation.js";
import { id, int32, list, name } from "../contract/schema.js";
import { rootUserParamsV5 } from "../domain/credentials/index.js";
import { checkClientAddress, listInEffect } from "../domain/ip-allowlist.js";
import { MemoryOutbox, type OutboxMessage } from "../messages/outbox.js";
import { type CanonicalForm, canonicalForm } from "../model/canonical-json.js";
import { DataReader, DataWriter } from "../model/data.js";
import type { VerificationClaims } from "../model/principal.js";
import { inProcessCredential, type Principal, type PrincipalInput } from "../model/principal.js";
import type { WebhookAttemptRecord, WebhookDeliveryRecord } from "../model/records.js";
import { createOrganizationRecords } from "../operations/organizations.js";
import { OPERATIONS } from "../operations/table.js";
import type { Store } from "../storage/store.js";
import type { WebhookDeliveryListOptions } from "../webhooks/service.js";
import type { WebhookJwks } from "../webhooks/signer.js";
import { type CustodyEngineOptions, EngineCore } from "./core.js";
import type { OperationMethods } from "./methods/generated/operation-methods.js";
import type { ActivityInput, TableMethods } from "./methods/method-types.js";
import { unknownUser } from "./pipeline/acting-users.js";
import { type ActivityExplanation, explainActivity } from "./pipeline/explain.js";
import { runQuery } from "./pipeline/query.js";
import { submitActivity } from "./pipeline/submit.js";
import { type ActivityTrace, traceActivity } from "./pipeline/trace-activity.js";
import { parseWith } from "./pipeline/validate.js";

export type { ActivityInput, CustodyEngineOptions, OperationMethods };

const bootstrapParams = v.object({
  organizationName: name,
  rootUsers: v.pipe(
    list(
      v.object({
        ...rootUserParamsV5.entries,
        apiKeys: v.optional(rootUserParamsV5.entries.apiKeys, []),
        authenticators: v.optional(rootUserParamsV5.entries.authenticators, []),
        oauthProviders: v.optional(rootUserParamsV5.entries.oauthProviders, []),
      }),
      100,
    ),
    v.minLength(1, "needs at least one root user"),
  ),
  rootQuorumThreshold: v.optional(int32, 1),
});

/** Input of {@link CustodyEngine.createOrganization}. */
export type CreateOrganizationInput = v.InferInput<typeof bootstrapParams>;

/** Result of {@link CustodyEngine.createOrganization}. */
export interface CreateOrganizationResult {
  /** The new organization. */
  organizationId: string;
  /** Its root users, in the order given. */
  rootUserIds: string[];
}

/** A request as the HTTP adapter hands it over: the exact body text and an authenticated principal. */
export interface RawRequest {
  /** The row the request's path names. */
  operation: Operation;
  /** The exact body text (activities are fingerprinted over it). */
  bodyText: string;
  /** The body, parsed. */
  body: unknown;
  /** Who the stamp says sent it. */
  principal: Principal;
}

/** What `engine.as()` hands to the constructor; module-private, so no caller can forge a bound view. */
class BoundView {
  constructor(
    readonly core: EngineCore,
    readonly principal: PrincipalInput,
  ) {}
}

/**
 * The custody engine. Create one per store; act through `engine.as({ userId })`, which returns a view of
 * the same engine bound to that user, whose methods mirror `@turnkey/http`'s `TurnkeyClient`:
 *
 * ```ts
 * const engine = new CustodyEngine();
 * const { organizationId, rootUserIds } = await engine.createOrganization({ organizationName: "Acme", rootUsers: [{ userName: "root", apiKeys: [...] }] });
 * const root = engine.as({ userId: rootUserIds[0] });
 * const { activity } = await root.createSubOrganization({ organizationId, parameters: { ... } });
 * ```
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the typed operation methods are installed on the prototype from the table.
export class CustodyEngine {
  readonly #core: EngineCore;
  readonly #principal: PrincipalInput | undefined;

  /** An engine over `options.store` (a new `MemoryStore` by default); see {@link CustodyEngineOptions}. */
  constructor(options: CustodyEngineOptions = {}) {
    if (options instanceof BoundView) {
      this.#core = options.core;
      this.#principal = options.principal;
    } else {
      this.#core = new EngineCore(options);
      this.#principal = undefined;
    }
  }

  static {
    for (const operation of OPERATIONS as readonly Operation[]) {
      Object.defineProperty(CustodyEngine.prototype, operation.method, {
        value(this: CustodyEngine, input: unknown) {
          return this.#callInProcess(operation, input);
        },
        writable: true,
        configurable: true,
      });
    }
  }

  /** A view of this engine acting as `principal`: same store, same state. */
  as(principal: PrincipalInput): CustodyEngine {
    return new CustodyEngine(new BoundView(this.#core, principal) as CustodyEngineOptions);
  }

  /**
   * Opens what every operation needs (the secret vault's data key). Operations open it on first use; call
   * this at start-up to fail fast, e.g. with `FAILED_PRECONDITION` when `keyEncryptionKey` is not the key
   * the store's secrets were sealed under.
   */
  async open(): Promise<void> {
    await this.#core.ready();
  }

  /**
   * Re-wraps the store's data key under a new 32-byte key-encryption key. Sealed records are not
   * rewritten. After it resolves, open this store with the new key.
   */
  async rotateKeyEncryptionKey(newKeyEncryptionKey: Uint8Array): Promise<void> {
    if (newKeyEncryptionKey.length !== 32)
      throw invalidArgument("the new key-encryption key must be 32 bytes", "newKeyEncryptionKey");
    await this.#core.services.secrets.rotate(this.#core.store, newKeyEncryptionKey);
  }

  /** The store this engine works on, as the host gave it. */
  get store(): Store {
    return this.#core.hostStore;
  }

  /**
   * Stops the engine's background work: the webhook dispatcher takes no new attempts and abandons those in
   * flight (unrecorded, so the next engine on this store sends them again), the send-status tracker
   * and the balance watcher stop watching the chains (the next engine on this store resumes), and the signer threads
   * (`signerThreads`) are terminated, failing what they were signing. Resolves once nothing of the
   * engine still uses the store. The store itself stays open: it is the host's to close.
   */
  async close(): Promise<void> {
    await Promise.all([
      this.#core.webhooks.close(),
      this.#core.sendTracker.close(),
      this.#core.balanceWatcher.close(),
      this.#core.services.signers?.close(),
    ]);
  }

  /**
   * The JSON Web Key Set webhook receivers verify deliveries with (the HTTP adapter serves it at
   * `GET /public/v1/discovery/webhooks/jwks`). Pass a key to `verifyTurnkeyWebhookSignature` of
   * `@turnkey/crypto` as `{ keyId: kid, publicKey: <hex of base64url-decoded x>, algorithm: "ed25519" }`.
   */
  async webhookJwks(): Promise<WebhookJwks> {
    await this.#core.ready();
    return this.#core.webhooks.jwks();
  }

  /**
   * Host-level: webhook deliveries owed to an organization's endpoints and `FEATURE_NAME_WEBHOOK` URL,
   * oldest first, each with its status, attempt count, next due time and last error.
   */
  async listWebhookDeliveries(
    organizationId: string,
    options?: WebhookDeliveryListOptions,
  ): Promise<WebhookDeliveryRecord[]> {
    return this.#core.webhooks.listDeliveries(organizationId, options);
  }

  /** Host-level: every attempt made to deliver one webhook event (by its event id), in order. */
  async listWebhookAttempts(eventId: string): Promise<WebhookAttemptRecord[]> {
    return this.#core.webhooks.listAttempts(eventId);
  }

  /**
   * The public key that signs this engine's export bundles and import targets: lowercase hex of the 65-byte
   * uncompressed P-256 point. Clients pass it as `dangerouslyOverrideSignerPublicKey` to
   * `decryptExportBundle`, `encryptWalletToBundle` and `encryptPrivateKeyToBundle` (`@turnkey/crypto`).
   */
  async signerPublicKey(): Promise<string> {
    await this.#core.ready();
    return this.#core.services.enclaveSigner.publicKey();
  }

  /**
   * The public key that signs this engine's session JWTs and OTP verification tokens: lowercase hex of the
   * 65-byte uncompressed P-256 point. Pass it to `verifySessionJwtSignature` and
   * `verifyOtpVerificationToken` of `@turnkey/crypto` as their override key. (OTP encryption target bundles
   * are signed by the bundle signer: {@link CustodyEngine.signerPublicKey}.)
   */
  async tokenSignerPublicKey(): Promise<string> {
    await this.#core.ready();
    return this.#core.services.tokens.publicKey();
  }

  /**
   * The public key OAuth 2.0 client secrets are encrypted to before `create_oauth2_credential` and
   * `update_oauth2_credential`: lowercase hex of the 65-byte uncompressed P-256 point. Pass it to
   * `encryptOauth2ClientSecret` of `@turnkey/crypto` as its `dangerouslyOverrideTlsFetcherPublicKey`.
   */
  async oauth2ClientSecretPublicKey(): Promise<string> {
    await this.#core.ready();
    return this.#core.services.oauth2.publicKey();
  }

  /**
   * Host-level: the claims of a verification token this engine issued, if it is unexpired; else
   * `UNAUTHENTICATED` (`VERIFICATION_TOKEN_INVALID` or `_EXPIRED`). Nothing is spent: the auth proxy uses it
   * to check that a look-up by email or phone is made by someone who proved that contact.
   */
  async verifyVerificationToken(token: string): Promise<VerificationClaims> {
    const core = this.#core;
    await core.ready();
    return core.services.tokens.verifyVerification(token, core.clock(), "verificationToken");
  }

  /**
   * Host-level: the email and SMS messages the engine sent (one-time codes, email-auth links), oldest first,
   * optionally only those to `to`: what tests and the dev server read instead of a mailbox. Empty when the
   * host plugged its own `messageSender`, which then holds them.
   */
  outbox(to?: string): OutboxMessage[] {
    const sender = this.#core.services.messages;
    return sender instanceof MemoryOutbox ? sender.messages(to) : [];
  }

  /**
   * Host-level bootstrap: creates a top-level organization with its root users and their credentials.
   * Not an activity (there is no one to stamp it yet); everything after it is.
   */
  async createOrganization(input: CreateOrganizationInput): Promise<CreateOrganizationResult> {
    const core = this.#core;
    await core.ready();
    const params = parseWith(bootstrapParams, input, "");
    return core.store.transaction(async (tx) => {
      const context = {
        data: new DataWriter(tx),
        now: core.clock(),
        newId: () => core.ids.next(),
        services: core.services,
      };
      const { organization, rootUsers } = await createOrganizationRecords(
        context,
        {
          name: params.organizationName,
          parentOrganizationId: null,
          rootUsers: params.rootUsers,
          rootQuorumThreshold: params.rootQuorumThreshold,
          settings: {},
        },
        "",
      );
      return { organizationId: organization.id, rootUserIds: rootUsers.map((user) => user.id) };
    });
  }

  /**
   * Runs one request whose principal is already authenticated (the HTTP adapter's entry point). `bodyText`
   * is the exact body: activities are fingerprinted over it.
   */
  async execute(request: RawRequest): Promise<unknown> {
    const core = this.#core;
    await core.ready();
    if (request.operation.kind === "activity") {
      return submitActivity(core, { ...request, operation: request.operation });
    }
    return runQuery(core, request.operation, request.body, request.principal);
  }

  /**
   * Host-level: why an activity was allowed, denied, rejected or is still waiting: every decision taken
   * about it (at submission and at each vote), with each policy's outcome and the error of any expression
   * that failed. Not scoped to an organization (a host tool, like `createOrganization`); NOT_FOUND for an
   * unknown activity.
   */
  async explainActivity(activityId: string): Promise<ActivityExplanation> {
    const now = this.#core.clock();
    return this.#core.store.read((reader) => explainActivity(new DataReader(reader), activityId, now));
  }

  /**
   * Host-level, for a person reading why: the activity's latest decision replayed clause by clause (each
   * policy's expressions with the values they read, the keywords its target decoded), who submitted it and
   * how each vote counted, and for one still waiting, whose approval could move it, by name. The stored
   * decision stays the record (`explainActivity`); the replay says when the policies changed since. NOT_FOUND
   * for an unknown activity.
   */
  async traceActivity(activityId: string): Promise<ActivityTrace> {
    const now = this.#core.clock();
    return this.#core.store.read((reader) => traceActivity(new DataReader(reader), activityId, now));
  }

  /**
   * Authenticates a request by its stamp over the exact body bytes: the HTTP adapter's first step. The
   * credential is looked up in the named organization, then its parent, then its sub-organizations. A
   * passkey's new sign counter is recorded (in a transaction of its own) before the principal is returned.
   * `organizationId` must be an id (`INVALID_ARGUMENT` naming it otherwise), as every operation's schema asks.
   *
   * With `clientAddress` (the address the request came from, or null when the host could not tell it), the
   * principal's IP allow-list is applied too: `PERMISSION_DENIED` (reason `IP_NOT_ALLOWED`) for an address it
   * does not allow. Without it (the dev console, a host's own tools) no allow-list applies, as the hosted
   * service's dashboard is never held to one.
   */
  async authenticate(request: {
    stamps: RequestStamps;
    body: Uint8Array;
    organizationId: string;
    clientAddress?: string | null;
  }): Promise<Principal> {
    const core = this.#core;
    // Checked before the credential is looked up under it, as the operation's own parse comes later.
    parseWith(id, request.organizationId, "organizationId");
    await core.ready();
    const { webauthn, tokens, oidc } = core.services;
    // Member by member: a spread of whatever object the host passes meets many shapes and goes megamorphic.
    const input = {
      stamps: request.stamps,
      body: request.body,
      organizationId: request.organizationId,
      now: core.clock(),
      relyingParty: webauthn,
      tokens,
      oidc,
    };
    const { clientAddress } = request;
    // The allow-list in effect is read in the same view as the credential; it is applied once the stamp verifies.
    const { authentication, allowlist } = await core.store.read(async (reader) => {
      const data = new DataReader(reader);
      const found = await authenticate(data, input);
      const { organizationId, apiKeyPublicKey } = found.holder;
      const list = clientAddress === undefined ? undefined : await listInEffect(data, organizationId, apiKeyPublicKey);
      return { authentication: found, allowlist: list };
    });
    const { confirm, signCountUpdate } = authentication;
    const principal = await confirm();
    if (clientAddress !== undefined) checkClientAddress(allowlist, clientAddress);
    if (signCountUpdate !== undefined) {
      await core.store.transaction(
        (tx) => recordSignCount(new DataWriter(tx), signCountUpdate),
        core.trees.transactionOptions(principal.organizationId),
      );
    }
    return principal;
  }

  /**
   * The principal `engine.as(input)` names. For an activity (`checkedInTransaction`), whose transaction reads the
   * user anyway and refuses one that is gone, a user whose organization this engine knows is not read here.
   */
  async #principalOf(
    core: EngineCore,
    input: PrincipalInput | undefined,
    checkedInTransaction: boolean,
  ): Promise<Principal> {
    if (!input) {
      throw new CustodyError("UNAUTHENTICATED", "no principal: call engine.as({ userId }) and use the returned view", {
        reason: "MISSING_PRINCIPAL",
      });
    }
    let organizationId = checkedInTransaction ? core.actingUsers.organizationOf(input.userId) : undefined;
    if (organizationId === undefined) {
      const user = await core.store.read(async (reader) => reader.get("users", input.userId));
      organizationId = user?.organizationId as string | undefined;
      if (organizationId !== undefined) core.actingUsers.learn(input.userId, organizationId);
    }
    if (
      organizationId === undefined ||
      (input.organizationId !== undefined && organizationId !== input.organizationId)
    ) {
      throw unknownUser(input.userId);
    }
    return { userId: input.userId, organizationId, credential: inProcessCredential() };
  }

  async #callInProcess(operation: Operation, input: unknown): Promise<unknown> {
    const core = this.#core;
    await core.ready();
    const principalInput = this.#principal;
    const principal = await this.#principalOf(
      core,
      principalInput,
      operation.kind === "activity" && operation.vote === undefined,
    );
    if (operation.kind === "query") return runQuery(core, operation, input, principal);
    if (input === null || typeof input !== "object") throw invalidArgument("the request body must be an object");
    const given = input as Partial<ActivityInput<unknown>>;
    const body = {
      type: given.type ?? operation.versions[0]?.type,
      timestampMs: given.timestampMs ?? core.defaultTimestamp(),
      organizationId: given.organizationId,
      parameters: given.parameters,
      generateAppProofs: given.generateAppProofs,
    };
    let form: CanonicalForm;
    try {
      form = canonicalForm(body);
    } catch {
      throw invalidArgument("the request must be plain JSON (no functions, BigInts or cycles)");
    }
    return submitActivity(core, {
      operation,
      bodyText: form.text,
      body: form.copy,
      principal,
      engineTimestamp: given.timestampMs === undefined,
    });
  }
}

export interface CustodyEngine extends OperationMethods, Omit<TableMethods, keyof OperationMethods> {}
