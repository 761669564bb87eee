/**
 * The types of the in-process methods, derived from the operation table: each activity method's input is
 * its version's parameters and its `activity.result` holds that version's result member with the value
 * its handler returns; each query method answers what its handler returns.
 *
 * @module
 */
import type * as v from "valibot";
import type { ActivityOperation, ActivityVersion, QueryOperation } from "../../contract/operation.js";
import type { Activity, ActivityResponse, ActivityStatus } from "../../model/wire-types.js";
import type { Operations } from "../../operations/table.js";

/** The body of an activity method: the wire body, with `type` and `timestampMs` defaulted in-process. */
export interface ActivityInput<P, T extends string = string> {
  /** Defaults to the operation's current version. */
  type?: T;
  /**
   * Defaults to the engine clock's reading, made strictly increasing so each call is a new activity. Pass
   * it to get the wire's idempotency: the same body twice is the same activity.
   */
  timestampMs?: string;
  /** The organization the activity acts in: the caller's own (or a sub-organization, where the row allows). */
  organizationId: string;
  /** The intent's parameters, as the version named by `type` takes them. */
  parameters: P;
  /** Ask for app proofs (accepted and ignored: custodian makes none). */
  generateAppProofs?: boolean;
}

/** The body of an activity method asking for one of the operation's older versions, which `type` must name. */
export interface OlderActivityInput<P, T extends string = string> extends ActivityInput<P, T> {
  /** The older version asked for. */
  type: T;
}

/**
 * An activity whose `result` is typed: `Result` once completed, null while it waits for votes (or was
 * rejected). Check `status` (or use `activity.result?.`) before reading it.
 */
export type ActivityOf<Result> = Omit<Activity, "status" | "result"> &
  (
    | { status: "ACTIVITY_STATUS_COMPLETED"; result: Result }
    | { status: Exclude<ActivityStatus, "ACTIVITY_STATUS_COMPLETED">; result: null }
  );

/** `v1ActivityResponse` with a typed result. */
export interface ActivityResponseOf<Result> {
  /** The activity the request created (or the earlier one with the same body). */
  activity: ActivityOf<Result>;
}

/** The version of a row named by its `type` string. */
type VersionNamed<V extends readonly ActivityVersion[], T> = Extract<V[number], { type: T }>;

/**
 * The response of one version: `{ <resultMember>: R }` as the activity's result, or, for votes (no result
 * member), the activity voted on.
 */
type ResponseOf<Version, R> = Version extends { result: infer K extends string }
  ? ActivityResponseOf<{ [Member in K]: R }>
  : ActivityResponse;

/** An activity method: `type` picks the version (the current one by default), which types both sides. */
type ActivityMethod<V extends readonly ActivityVersion[], R> = <T extends V[number]["type"] = V[0]["type"]>(
  input: ActivityInput<v.InferInput<VersionNamed<V, T>["parameters"]>, T>,
) => Promise<ResponseOf<VersionNamed<V, T>, R>>;

/** The in-process method type of one row. */
type MethodOfRow<O> =
  O extends ActivityOperation<string, infer V, infer R>
    ? ActivityMethod<V, R>
    : O extends QueryOperation<string, infer S, infer R>
      ? (input: v.InferInput<S>) => Promise<R>
      : never;

/** The method name of every operation of the table. */
export type OperationName = Operations[number]["method"];

/**
 * Every method of the table, typed from its schemas and handler but without doc comments or named types: the
 * generated `OperationMethods` spells each out with both, and this keeps a row added before the regeneration typed
 * all the same.
 */
export type TableMethods = { [O in Operations[number] as O["method"]]: MethodOfRow<O> };

/** The in-process method of the operation named `M`, as the table types it. */
export type OperationMethod<M extends OperationName> = TableMethods[M];
