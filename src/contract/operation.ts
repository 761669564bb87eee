/**
 * The shape of one row of the operation table, and the helpers that keep each row's literal types so the
 * typed `CustodyEngine` methods can be derived from the table.
 *
 * @module
 */
import type * as v from "valibot";
import type { SubmitAccess } from "../model/access.js";
import type { DataReader, DataWriter } from "../model/data.js";
import type { Principal } from "../model/principal.js";
import type { RandomSource } from "../model/random.js";
import type { OrganizationRecord, VoteSelection } from "../model/records.js";
import type { ActivityViewer } from "../model/render.js";
import type { PolicyContext } from "../policy/types.js";
import type { EngineServices } from "./services.js";

// biome-ignore lint/suspicious/noExplicitAny: valibot's generic schema type needs `any` for its issue parameter.
export type AnySchema = v.GenericSchema<any, any>;

/** One accepted version of an activity: its `type` string and its intent/result member names. */
export interface ActivityVersion<S extends AnySchema = AnySchema> {
  readonly type: string;
  /**
   * Other spellings of {@link type} an official client sends for this version (`@turnkey/sdk-server` names
   * one activity type without an underscore its API description has); accepted, and recorded as `type`.
   */
  readonly alsoAccepted?: readonly string[];
  /** `v1Intent` member, e.g. `createWalletIntent`. */
  readonly intent: string;
  /** `v1Result` member, e.g. `createWalletResult`; null when the response is another activity (approvals). */
  readonly result: string | null;
  /** Schema of `parameters` in this version. */
  readonly parameters: S;
  /**
   * Parameter members that carry secrets (one-time codes, verification tokens): the stored intent and the
   * submitter's vote message keep `<redacted>` in their place, so no activity record holds them.
   */
  readonly secretParameters?: readonly string[];
  /**
   * Result members that carry secrets (session JWTs, verification tokens): returned in the response to the
   * submission only, and stored as `<redacted>`.
   */
  readonly secretResults?: readonly string[];
}

/** Policy resource and action of an activity (the table in docs/spec/policy-language.md §2). */
export interface PolicyTarget {
  readonly resource: string;
  readonly action: string;
}

/** What an activity handler can reach: one transaction, the caller and the engine's services. */
export interface ActivityContext {
  readonly data: DataWriter;
  readonly principal: Principal;
  /** The organization named by the request. */
  readonly organization: OrganizationRecord;
  readonly activityId: string;
  /** `sha256:` of the activity's body: the idempotency key a resubmission of the same body matches. */
  readonly fingerprint: string;
  /** The engine clock's reading for this activity. */
  readonly now: number;
  readonly newId: () => string;
  readonly random: RandomSource;
  readonly services: EngineServices;
  /**
   * Registers writes that must persist even if the activity fails (a wrong one-time code still counts as an
   * attempt). They run in the transaction that records the FAILED activity, and not at all on success.
   */
  readonly keepOnFailure: (write: (data: DataWriter) => Promise<void>) => void;
  /**
   * Runs `work`, CPU work that touches no storage (a signature on a signer thread), outside the store
   * transaction where the pipeline allows it: the transaction ends having written nothing, `work` runs while
   * other activities proceed, and the activity is recorded in a second transaction once `confirm` has checked
   * there that what the decision relied on still stands (it throws to fail the activity). Elsewhere (a vote
   * completing the activity) `work` runs at once, inside the transaction. A handler calling it must have
   * written nothing before, and touches no storage after.
   */
  readonly outsideTransaction: <T>(work: () => Promise<T>, confirm: (data: DataReader) => Promise<void>) => Promise<T>;
}

/** What a row's `policyTarget` can reach: the transaction's reads, the organization and the submitter. */
export interface PolicyTargetContext {
  readonly data: DataReader;
  readonly organization: OrganizationRecord;
  /** The activity's submitter (also when the decision is taken again at a later vote). */
  readonly principal: Principal;
  /**
   * The engine's services (the chain backends, for the sends). Absent when a read re-judges a pending
   * activity (whether a voter could still count): a target must then be built without reaching a chain.
   */
  readonly services?: EngineServices;
}

/** The policy keywords an activity's target supplies: the signing or export target and the parsed payload. */
export type PolicyTargetData = Pick<
  PolicyContext,
  "wallet" | "wallets" | "wallet_account" | "private_key" | "eth" | "solana" | "tron" | "bitcoin" | "tempo" | "secret"
>;

/**
 * What a row's `policyTarget` returns: one target, or, for an activity that acts with several keys at once
 * (a Solana transaction several of the organization's keys sign), one per key. Policies judge each of them
 * in its own context, and the activity goes ahead only as far as the worst of those decisions lets it
 * (`engine/decisions/decision.ts`), so a policy denying one of the keys cannot be bypassed by naming another.
 */
export type PolicyTargets = PolicyTargetData | SeveralPolicyTargets;

/** Several targets, one per key the activity acts with: never empty. */
export type SeveralPolicyTargets = readonly [PolicyTargetData, ...PolicyTargetData[]];

/** Whether a `policyTarget` answered with one target per key. */
export function isSeveralTargets(targets: PolicyTargets): targets is SeveralPolicyTargets {
  return Array.isArray(targets);
}

/** What a query handler can reach: a consistent read view. */
export interface QueryContext {
  readonly data: DataReader;
  readonly principal: Principal;
  /** The organization named by the request (the principal's own or a sub-organization of it). */
  readonly organization: OrganizationRecord;
  readonly now: number;
  readonly services: EngineServices;
  /** The principal as a viewer of activities: whether its vote could still count on a pending one. */
  readonly viewer: ActivityViewer;
}

/** A row of the table that submits an activity (`/public/v1/submit/...`). */
export interface ActivityOperation<
  M extends string = string,
  V extends readonly ActivityVersion[] = readonly ActivityVersion[],
  R = unknown,
> {
  readonly kind: "activity";
  /** Method name on `CustodyEngine`, as `@turnkey/http`'s `TurnkeyClient` names it. */
  readonly method: M;
  /** Path under `/public/v1/submit/`. */
  readonly path: string;
  /** Accepted versions, the current one first. */
  readonly versions: V;
  /**
   * Set when the hosted API's public description names the activity type, intent and result but no route
   * for them (`upsert_gas_usage_config`): `path` is then custodian's, formed as the others are, and the
   * official clients have no method for it. The drift check holds such a row to the absence of the route.
   */
  readonly unlistedRoute?: true;
  /**
   * Policy resource and action; null for activities with none in the table of docs/spec/policy-language.md §2: votes
   * (their eligibility is the pending consensus's) and root-quorum-only activities (no policy can allow them).
   */
  readonly policy: PolicyTarget | null;
  /**
   * Set on `approve_activity` and `reject_activity`: the activity is a vote on the activity whose
   * `fingerprint` it names. The pipeline casts it (`engine/pipeline/voting.ts`) and answers with that target
   * activity; such rows have no handler.
   */
  readonly vote?: VoteSelection;
  /**
   * Who may submit: `own` (the principal's organization only) or `ownOrSubOrganization` (the parent's
   * credentials may act on a sub-organization, as for the authentication activities).
   */
  readonly access: SubmitAccess;
  /**
   * Whether a principal authenticated by `X-Stamp-Attested` (a verification or OIDC token) may submit it:
   * only the log-in that turns such a token into a session (`stamp_login`).
   */
  readonly acceptsAttestedStamp?: boolean;
  /**
   * The target the activity names, for the policy context: the wallet, account or private key it signs
   * with or exports, and its parsed payload (`eth`, `solana`, ...), or one such target per key when it acts
   * with several (see {@link PolicyTargets}). Absent when the activity names none.
   * Throws a `CustodyError` naming the field when the parameters name something that does not exist.
   */
  policyTarget?(
    context: PolicyTargetContext,
    parameters: v.InferOutput<V[number]["parameters"]>,
    version: V[number],
  ): Promise<PolicyTargets>;
  /**
   * Asks for what the handler will read first (a lookup of the name it must find free), on a store that answers
   * reads fired together in one round trip (`Store.readsAhead`): the pipeline fires it with the activity's first
   * reads, and the handler then finds the answer in its transaction's memory. A guess that misses costs nothing
   * but the read. `organizationId` is the organization the request names.
   */
  readsAhead?(
    data: DataReader,
    parameters: v.InferOutput<V[number]["parameters"]>,
    organizationId: string,
  ): Promise<unknown>;
  /**
   * Returns the result member's value; throws a `CustodyError` to fail the activity. Every row declared
   * with `defineActivity` has one; only vote rows (`defineVote`) do not. (Method syntax on
   * purpose: it keeps rows with specific parameter types assignable to the generic `Operation`.)
   */
  handler?(
    context: ActivityContext,
    parameters: v.InferOutput<V[number]["parameters"]>,
    version: V[number],
  ): Promise<R>;
}

/** A row of the table that reads (`/public/v1/query/...`). */
export interface QueryOperation<M extends string = string, S extends AnySchema = AnySchema, R = unknown> {
  readonly kind: "query";
  readonly method: M;
  /** Path under `/public/v1/query/`. */
  readonly path: string;
  /** Schema of the whole request body (which names `organizationId`). */
  readonly request: S;
  /** Answers the query from a read view. */
  handler(context: QueryContext, request: v.InferOutput<S>): Promise<R>;
}

/** Any row of the operation table. */
export type Operation = ActivityOperation | QueryOperation;

/**
 * Declares an activity row, keeping its literal method name and versions and its handler's result type
 * (the value of the result member, which types the in-process method's `activity.result`).
 */
export function defineActivity<const M extends string, const V extends readonly ActivityVersion[], R>(
  operation: Omit<ActivityOperation<M, V, R>, "kind" | "access" | "vote" | "handler"> & {
    access?: ActivityOperation["access"];
    handler: NonNullable<ActivityOperation<M, V, R>["handler"]>;
  },
): ActivityOperation<M, V, R> {
  return { kind: "activity", access: "own", ...operation };
}

/**
 * Declares a vote row (`approve_activity`, `reject_activity`): no policy resource, no handler. A vote may
 * name a sub-organization's activity because whether it counts is decided by the organization governing
 * that activity (its submitter's), not by where the voter's credential lives.
 */
export function defineVote<const M extends string, const V extends readonly ActivityVersion[]>(
  operation: Pick<ActivityOperation<M, V>, "method" | "path" | "versions"> & { vote: VoteSelection },
): ActivityOperation<M, V> {
  return { kind: "activity", access: "ownOrSubOrganization", policy: null, ...operation };
}

/** Declares a query row. */
export function defineQuery<const M extends string, S extends AnySchema, R>(
  operation: Omit<QueryOperation<M, S, R>, "kind">,
): QueryOperation<M, S, R> {
  return { kind: "query", ...operation };
}
