/**
 * Where a pending activity stands at one moment: which votes still count, and whether a user's vote
 * could count, judged against the current users and the current policies, never a decision stored earlier.
 *
 * - **The consensus window.** "Activities do not expire but approvals (votes) do": the submission is the
 *   first approval and opens a 24-hour window; approvals that do not reach consensus within it expire and
 *   must be cast again, while the activity stays `ACTIVITY_STATUS_CONSENSUS_NEEDED` (Turnkey docs,
 *   developer-reference/api-overview/submissions; docs/spec/wire-protocol.md §5). A vote cast after a window closed
 *   opens the next one, so the submitter, or anyone whose vote expired, may approve again.
 * - **Deleted voters.** The vote of a user deleted since counts no more (see `policy-context.ts`).
 *
 * @module
 */
import { CustodyError } from "../../common/errors.js";
import type { ActivityOperation, ActivityVersion } from "../../contract/operation.js";
import type { EngineServices } from "../../contract/services.js";
import { consensusWindow } from "../../model/consensus-window.js";
import type { DataReader } from "../../model/data.js";
import type { Principal } from "../../model/principal.js";
import type { ActivityRecord, UserRecord, VoteRecord } from "../../model/records.js";
import type { ActivityViewer } from "../../model/render.js";
import { consensusCouldCount } from "../../policy/index.js";
import type { PolicyCredential } from "../../policy/types.js";
import { type ActivityDecision, decideActivity } from "../decisions/decision.js";
import { policyUserOf } from "../decisions/policy-context.js";
import { submitterOf } from "./execution.js";
import { parseWith } from "./validate.js";

/** What an activity was submitted as: its row, version and validated parameters. */
export interface TargetRequest {
  operation: ActivityOperation;
  version: ActivityVersion;
  parameters: unknown;
}

/**
 * The row, version and validated parameters an activity was submitted with (kept in its intent). The
 * table is imported when first needed: its rows render activities through this module, so a static
 * import would be a cycle.
 */
export async function targetRequest(target: ActivityRecord): Promise<TargetRequest> {
  const { operationByUrlPath } = await import("../../operations/table.js");
  const operation = operationByUrlPath(`/public/v1/submit/${target.operation}`);
  const version = operation?.kind === "activity" ? operation.versions.find((c) => c.type === target.type) : undefined;
  if (operation?.kind !== "activity" || !version) {
    throw new CustodyError("INTERNAL", `activity ${target.id} has a type this engine no longer serves`, {
      activityId: target.id,
      type: target.type,
    });
  }
  return { operation, version, parameters: parseWith(version.parameters, target.intent[version.intent], "parameters") };
}

/**
 * Decides a pending activity now, for its `submitter`, with `votes` (those that count), the current
 * policies and root quorum of the submitter's organization, and the current users.
 */
export async function decidePending(
  data: DataReader,
  target: ActivityRecord,
  submitter: Principal,
  votes: readonly VoteRecord[],
  now: number,
  services?: EngineServices,
): Promise<ActivityDecision> {
  const [organization, governing] = await Promise.all([
    data.require("organizations", target.organizationId, "organization"),
    data.require("organizations", submitter.organizationId, "organization"),
  ]);
  return decideActivity({
    data,
    ...(services ? { services } : {}),
    organization,
    governing,
    ...(await targetRequest(target)),
    votes,
    submitter,
    now,
  });
}

/** The credentials a user could vote with (API keys and passkeys), for showing whether they can vote. */
export async function registeredCredentials(data: DataReader, user: UserRecord): Promise<PolicyCredential[]> {
  const [apiKeys, authenticators] = await Promise.all([
    data.listAll("apiKeys", user.id),
    data.listAll("authenticators", user.id),
  ]);
  return [
    ...apiKeys.map((key) => ({ id: key.id, user_id: user.id, type: key.credentialType, public_key: key.publicKey })),
    ...authenticators.map((authenticator) => ({
      id: authenticator.id,
      user_id: user.id,
      type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR",
      credential_id: authenticator.credentialId,
      public_key: "",
    })),
  ];
}

/**
 * Whether a vote from `userId` can count on a pending activity at `now`: the user belongs to the governing
 * organization (the submitter's) and is one of its root users (the root quorum counts them), or some
 * consensus left open by the decision the current policies and users reach with the votes that count
 * could count them (docs/spec/policy-language.md, decision 14). When nothing is left to decide (the submitter can no
 * longer act, or the current policies already allow or deny it without more votes), any user of that organization may
 * vote: the vote settles it (an approval runs or fails it, a rejection ends it). `credentials` are those the vote
 * is stamped with; when not given (to show `canApprove`), the user's registered ones.
 */
export async function voterCanCount(
  data: DataReader,
  activity: ActivityRecord,
  userId: string,
  now: number,
  credentials?: readonly PolicyCredential[],
): Promise<boolean> {
  const user = await data.get("users", userId);
  const submitter = await submitterOf(data, activity).catch(() => undefined);
  const governingId = submitter?.organizationId ?? activity.organizationId;
  if (!user || user.organizationId !== governingId) return false;
  const organization = await data.get("organizations", governingId);
  if (!organization) return false;
  if (!submitter || organization.rootQuorum.userIds.includes(userId)) return true;
  const decision = await decidePending(data, activity, submitter, consensusWindow(activity.votes, now).counting, now);
  // Policies changed since the last vote and now settle it either way: any vote of a member settles it.
  if (decision.outcome !== "CONSENSUS_NEEDED") return true;
  if (decision.openConsensus.length === 0) return false;
  const voter = policyUserOf(user);
  const voting = credentials ?? (await registeredCredentials(data, user));
  return decision.openConsensus.some(({ consensus }) => consensusCouldCount(consensus, voter, voting));
}

/**
 * `userId` at `now` as a viewer of rendered activities: whether its vote could still count on a pending one
 * is judged by {@link voterCanCount}.
 */
export function activityViewer(data: DataReader, userId: string, now: number): ActivityViewer {
  return { userId, now, voteCouldCount: (activity) => voterCanCount(data, activity, userId, now) };
}
