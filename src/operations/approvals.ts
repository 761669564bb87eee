/**
 * Votes on a pending activity: `approve_activity` and `reject_activity`, each naming its target by
 * `fingerprint`. They have no handler and no policy resource: the submit pipeline casts them
 * (`engine/pipeline/voting.ts`), and whether a vote counts is the pending consensus's question, not a policy's.
 *
 * @module
 */
import * as v from "valibot";
import { defineVote } from "../contract/operation.js";
import { withoutNul } from "../contract/schema.js";

const voteParameters = v.object({
  fingerprint: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(256), withoutNul),
});

export const approveActivity = defineVote({
  method: "approveActivity",
  path: "approve_activity",
  versions: [
    {
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      intent: "approveActivityIntent",
      result: null,
      parameters: voteParameters,
    },
  ],
  vote: "VOTE_SELECTION_APPROVED",
});

export const rejectActivity = defineVote({
  method: "rejectActivity",
  path: "reject_activity",
  versions: [
    {
      type: "ACTIVITY_TYPE_REJECT_ACTIVITY",
      intent: "rejectActivityIntent",
      result: null,
      parameters: voteParameters,
    },
  ],
  vote: "VOTE_SELECTION_REJECTED",
});
