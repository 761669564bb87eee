/**
 * `update_root_quorum`: which users form the root quorum and how many of them must approve. A
 * root-quorum-only activity (docs/spec/policy-language.md §3): no policy can allow it, only the current quorum.
 *
 * @module
 */
import * as v from "valibot";
import { invalidArgument, notFound } from "../common/errors.js";
import { defineActivity } from "../contract/operation.js";
import { id, int32, list } from "../contract/schema.js";

/** Root users per organization (docs/spec/wire-protocol.md §7: 100 users per organization). */
const MAX_ROOT_USERS = 100;

export const updateRootQuorum = defineActivity({
  method: "updateRootQuorum",
  path: "update_root_quorum",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM",
      intent: "updateRootQuorumIntent",
      result: "updateRootQuorumResult",
      parameters: v.object({
        threshold: int32,
        userIds: v.pipe(list(id, MAX_ROOT_USERS), v.minLength(1, "needs at least one root user")),
      }),
    },
  ],
  policy: null,
  async handler(context, params) {
    const { data } = context;
    for (const [i, userId] of params.userIds.entries()) {
      if (params.userIds.indexOf(userId) !== i) {
        throw invalidArgument(`user ${userId} is listed twice`, `parameters.userIds[${i}]`);
      }
      const user = await data.get("users", userId);
      if (!user || user.organizationId !== context.organization.id) {
        throw notFound("user", userId, `parameters.userIds[${i}]`);
      }
    }
    if (params.threshold < 1 || params.threshold > params.userIds.length) {
      throw invalidArgument(
        `threshold must be between 1 and the number of root users (${params.userIds.length})`,
        "parameters.threshold",
      );
    }
    // Read again inside the transaction: the context's copy was taken before the decision.
    const organization = await data.require("organizations", context.organization.id, "organization");
    await data.put("organizations", {
      ...organization,
      rootQuorum: { threshold: params.threshold, userIds: [...params.userIds] },
      updatedAtMs: context.now,
    });
    return {};
  },
});
