/**
 * The policy decision of a submission, following the policy spec's `decide` (section 3): root quorum
 * first, then deny wins, allow, the implicit self-credential permission, consensus, and implicit deny.
 *
 * @module
 */
import type { PolicyTarget } from "../operations/define.js";
import type { OrganizationRecord } from "./records.js";

export type Outcome = "ALLOW" | "DENY" | "CONSENSUS_NEEDED";

export interface DecisionInput {
  organization: OrganizationRecord;
  policy: PolicyTarget;
  /** User ids that approved so far, the submitter first. */
  approverIds: readonly string[];
  /** The user the activity's parameters act on (`userId`), for the self-credential rule. */
  targetUserId: string | undefined;
}

export interface Decision {
  outcome: Outcome;
  /** Why, in a sentence a person can read. */
  reason: string;
}

/**
 * Decides with the organization's root quorum and no stored policies (custodian has no policy store in
 * this build, so every policy list is empty and the rules reduce to the quorum and the implicit ones).
 */
export function decide(input: DecisionInput): Decision {
  const { rootQuorum } = input.organization;
  const rootVotes = new Set(input.approverIds.filter((id) => rootQuorum.userIds.includes(id))).size;
  if (rootVotes >= rootQuorum.threshold) {
    return { outcome: "ALLOW", reason: `root quorum reached (${rootVotes} of ${rootQuorum.threshold})` };
  }
  const submitter = input.approverIds[0];
  if (input.policy.resource === "CREDENTIAL" && submitter !== undefined && input.targetUserId === submitter) {
    return { outcome: "ALLOW", reason: "a user may manage its own credentials" };
  }
  if (rootVotes > 0) {
    return {
      outcome: "CONSENSUS_NEEDED",
      reason: `root quorum needs ${rootQuorum.threshold} approvals, has ${rootVotes}`,
    };
  }
  return { outcome: "DENY", reason: "no policy allows this activity (implicit deny)" };
}
