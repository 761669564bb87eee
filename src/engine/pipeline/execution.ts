/**
 * The pieces of running an activity that submission and voting share: the vote a stamp casts, the
 * submitter acting again when a later vote completes their activity, and calling a row's handler.
 *
 * @module
 */
import { CustodyError, isCustodyError, notFound } from "../../common/errors.js";
import type { ActivityContext, ActivityOperation, ActivityVersion } from "../../contract/operation.js";
import { assertMayRead } from "../../model/access.js";
import type { DataReader, DataWriter } from "../../model/data.js";
import type { Principal } from "../../model/principal.js";
import type { ActivityRecord, OrganizationRecord, VoteRecord, VoteSelection } from "../../model/records.js";
import type { PipelineCore } from "./submission.js";

/** The vote `principal` casts by stamping `message` (the exact request body). */
export function voteOf(
  principal: Principal,
  selection: VoteSelection,
  message: string,
  id: string,
  now: number,
): VoteRecord {
  const { credential } = principal;
  return {
    id,
    userId: principal.userId,
    selection,
    message,
    publicKey: credential.publicKey,
    signature: credential.signature,
    scheme: credential.scheme,
    credential: { kind: credential.kind, id: credential.id, type: credential.type },
    createdAtMs: now,
  };
}

/**
 * The submitter of `activity`, as the principal its handler runs for when a later vote completes it: the
 * user and credential of the first vote. A submitter deleted meanwhile cannot act any more.
 */
export async function submitterOf(data: DataReader, activity: ActivityRecord): Promise<Principal> {
  const first = activity.votes[0];
  const user = first && (await data.get("users", first.userId));
  if (!first || !user) {
    throw new CustodyError("FAILED_PRECONDITION", `the submitter of activity ${activity.id} no longer exists`, {
      reason: "SUBMITTER_NOT_FOUND",
      activityId: activity.id,
    });
  }
  return {
    userId: user.id,
    organizationId: user.organizationId,
    credential: { ...first.credential, publicKey: first.publicKey, scheme: first.scheme, signature: first.signature },
  };
}

/** What running a handler needs. */
export interface Execution {
  readonly operation: ActivityOperation;
  readonly version: ActivityVersion;
  readonly parameters: unknown;
  readonly principal: Principal;
  readonly organization: OrganizationRecord;
  readonly activityId: string;
  /** The activity's fingerprint (its idempotency key). */
  readonly fingerprint: string;
  readonly now: number;
  /** Collects the writes the handler wants kept should the activity fail (see `ActivityContext.keepOnFailure`). */
  readonly failureWrites?: ((data: DataWriter) => Promise<void>)[];
}

/** Runs the row's handler in `data`'s transaction and returns the activity's `result` (`{<member>: ...}`). */
export async function execute(
  core: PipelineCore,
  data: DataWriter,
  run: Execution,
): Promise<Record<string, unknown> | null> {
  return resultOf(
    run,
    await runHandler(
      run,
      contextOf(core, data, run, (work) => work()),
    ),
  );
}

/** Work a handler asked to run once its transaction has ended (`ActivityContext.outsideTransaction`). */
export interface DeferredExecution {
  /** Checks, in the transaction that records the activity, that what the decision relied on still stands. */
  confirm(data: DataReader): Promise<void>;
  /** Runs the work and the rest of the handler: the activity's `result`. Call it after the transaction ended. */
  finish(): Promise<Record<string, unknown> | null>;
}

/**
 * As {@link execute}, but a handler may ask to finish outside the transaction: then this returns as soon as
 * it asks, with what finishes it, and the transaction must end without writing the activity.
 */
export async function executeDeferrable(
  core: PipelineCore,
  data: DataWriter,
  run: Execution,
): Promise<{ result: Record<string, unknown> | null } | { deferred: DeferredExecution }> {
  let deferral: { confirm: DeferredExecution["confirm"]; release: () => void } | undefined;
  let asked: () => void = () => undefined;
  const askedOutside = new Promise<undefined>((resolve) => {
    asked = () => resolve(undefined);
  });
  const context = contextOf(core, data, run, <T>(work: () => Promise<T>, confirm: DeferredExecution["confirm"]) => {
    if (deferral) throw new CustodyError("INTERNAL", "a handler may leave its transaction only once");
    const gate = new Promise<void>((resolve) => {
      deferral = { confirm, release: resolve };
    });
    asked();
    return gate.then(work);
  });
  const handled = runHandler(run, context).then((value) => resultOf(run, value));
  const first = await Promise.race([handled.then((result) => ({ result })), askedOutside]);
  if (first !== undefined) return first;
  const { confirm, release } = deferral as NonNullable<typeof deferral>;
  return {
    deferred: {
      confirm,
      finish: () => {
        release();
        return handled;
      },
    },
  };
}

/** Calls the row's handler as a method of its row (not a bound copy: one fewer function per activity). */
function runHandler(run: Execution, context: ActivityContext): Promise<unknown> {
  const { operation, version } = run;
  if (!operation.handler) {
    throw new CustodyError("INTERNAL", `activity ${version.type} has no handler`, { activityId: run.activityId });
  }
  return operation.handler(context, run.parameters, run.version);
}

function resultOf(run: Execution, value: unknown): Record<string, unknown> | null {
  return run.version.result === null ? null : { [run.version.result]: value };
}

function contextOf(
  core: PipelineCore,
  data: DataWriter,
  run: Execution,
  outsideTransaction: ActivityContext["outsideTransaction"],
): ActivityContext {
  return {
    data,
    principal: run.principal,
    organization: run.organization,
    activityId: run.activityId,
    fingerprint: run.fingerprint,
    now: run.now,
    newId: () => core.ids.next(),
    random: core.random,
    services: core.services,
    keepOnFailure: (write) => {
      run.failureWrites?.push(write);
    },
    outsideTransaction,
  };
}

/** A thrown value as a `CustodyError`; unknown errors may carry anything in their message, so they become a generic one. */
export function asCustodyError(error: unknown): CustodyError {
  if (isCustodyError(error)) return error;
  return new CustodyError("INTERNAL", "internal error while executing the activity", {}, { cause: error });
}

/**
 * May `principal` be answered with `activity` for a body seen before? A voter on it may; anyone else must be
 * able to read its organization, so a copied body does not read another organization's results.
 */
export async function assertMayReplay(data: DataReader, principal: Principal, activity: ActivityRecord): Promise<void> {
  if (activity.votes.some((vote) => vote.userId === principal.userId)) return;
  const [organization, own] = await Promise.all([
    data.get("organizations", activity.organizationId),
    data.get("organizations", principal.organizationId),
  ]);
  if (!organization || !own) throw notFound("activity", activity.id);
  assertMayRead(principal, organization, own, false);
}
