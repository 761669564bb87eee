/**
 * Votes on a pending activity from whatever a test holds when a request waits for consensus: the activity, its
 * id, the answer `@turnkey/sdk-server` hands back, or the error `@turnkey/http` or `@turnkey/viem` throws (each
 * carries `activityId`). The vote needs the activity's fingerprint, which none of those has in one step.
 *
 * @module
 */
import { invalidArgument } from "../common/errors.js";
import type { CustodyEngine } from "../engine/engine.js";
import type { Activity } from "../model/wire-types.js";

/** Who votes: a user of the organization (a `TestUser`, or anything with its `userId`), or a user id. */
export type Voter = string | { readonly userId: string };

/**
 * The id and, when known, organization of the activity `reference` names: its id; an activity
 * (`{ id, status, organizationId }`); an answer holding one (`{ activity }`, as `@turnkey/sdk-server` resolves
 * with an activity that needs consensus); or an error with `activityId` (`TurnkeyActivityError` and
 * `TurnkeyActivityConsensusNeededError` of `@turnkey/http`, `TurnkeyConsensusNeededError` of `@turnkey/viem`),
 * directly or in its `cause`.
 */
export function activityOf(reference: unknown): { activityId: string; organizationId?: string } {
  let value = reference;
  // Errors wrap errors (viem's `BaseError` keeps the client's as `cause`): a few levels are plenty.
  for (let depth = 0; depth < 5 && value !== null && value !== undefined; depth++) {
    if (typeof value === "string" && value !== "") return { activityId: value };
    if (typeof value !== "object") break;
    const record = value as Record<string, unknown>;
    if (typeof record.activityId === "string") return { activityId: record.activityId };
    const activity = (typeof record.activity === "object" ? record.activity : record) as Record<string, unknown> | null;
    if (activity && typeof activity.id === "string" && typeof activity.status === "string") {
      return typeof activity.organizationId === "string"
        ? { activityId: activity.id, organizationId: activity.organizationId }
        : { activityId: activity.id };
    }
    value = record.cause;
  }
  const shown = reference instanceof Error ? `${reference.name}: ${reference.message}` : typeof reference;
  throw invalidArgument(
    `names no activity to vote on (${shown.slice(0, 200)}); pass the activity, its id, or the error ` +
      "the client threw for an activity that needs consensus",
    "activity",
  );
}

/**
 * Approves (or rejects) the activity `reference` names as `voter`, reading its fingerprint first; resolves with
 * the activity as the vote left it (completed once the consensus is met).
 */
export async function vote(
  engine: CustodyEngine,
  defaultOrganizationId: string,
  selection: "approve" | "reject",
  reference: unknown,
  voter: Voter,
): Promise<Activity> {
  const { activityId, organizationId = defaultOrganizationId } = activityOf(reference);
  const userId = typeof voter === "string" ? voter : voter.userId;
  const as = engine.as({ userId });
  const { activity } = await as.getActivity({ organizationId, activityId });
  const parameters = { fingerprint: activity.fingerprint };
  const answer =
    selection === "approve"
      ? await as.approveActivity({ organizationId, parameters })
      : await as.rejectActivity({ organizationId, parameters });
  return answer.activity;
}
