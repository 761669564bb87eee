/**
 * Reading the activity log: `get_activity` and `list_activities`.
 *
 * @module
 */
import * as v from "valibot";
import { defineQuery } from "../contract/operation.js";
import { DEFAULT_PAGE_SIZE, id, list, pagination } from "../contract/schema.js";
import type { ActivityRecord } from "../model/records.js";
import { renderActivity } from "../model/render.js";

/** `v1ActivityStatus` values. */
export const ACTIVITY_STATUSES = [
  "ACTIVITY_STATUS_CREATED",
  "ACTIVITY_STATUS_PENDING",
  "ACTIVITY_STATUS_COMPLETED",
  "ACTIVITY_STATUS_FAILED",
  "ACTIVITY_STATUS_CONSENSUS_NEEDED",
  "ACTIVITY_STATUS_REJECTED",
  "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED",
] as const;

export const getActivity = defineQuery({
  method: "getActivity",
  path: "get_activity",
  request: v.object({ organizationId: id, activityId: id }),
  async handler(context, request) {
    const { data, organization } = context;
    const activity = await data.requireInOrganization(
      "activities",
      request.activityId,
      organization.id,
      "activity",
      "activityId",
    );
    return { activity: await renderActivity(data, activity, context.viewer) };
  },
});

export const getActivities = defineQuery({
  method: "getActivities",
  path: "list_activities",
  request: v.object({
    organizationId: id,
    filterByStatus: v.optional(list(v.picklist(ACTIVITY_STATUSES), ACTIVITY_STATUSES.length)),
    paginationOptions: v.optional(pagination),
    filterByType: v.optional(
      list(v.pipe(v.string(), v.regex(/^ACTIVITY_TYPE_[A-Z0-9_]+$/, "must be an ACTIVITY_TYPE_* value")), 200),
    ),
  }),
  async handler(context, request) {
    const { data, organization } = context;
    const limit = request.paginationOptions?.limit ?? DEFAULT_PAGE_SIZE;
    const { before, after } = request.paginationOptions ?? {};
    const statuses = request.filterByStatus?.length ? new Set<string>(request.filterByStatus) : undefined;
    const types = request.filterByType?.length ? new Set(request.filterByType) : undefined;
    const matches = (a: ActivityRecord) => (!statuses || statuses.has(a.status)) && (!types || types.has(a.type));
    // Newest first. `before` pages towards older activities; `after` alone returns the ones just newer than
    // the cursor (walked oldest-first from it, then shown newest-first like every page).
    const order = after !== undefined && before === undefined ? "asc" : "desc";
    const found: ActivityRecord[] = [];
    let cursor = order === "asc" ? after : before;
    while (found.length < limit) {
      const page = await data.list("activities", organization.id, {
        order,
        limit: 100,
        ...(order === "asc" ? { after: cursor, before } : { before: cursor, after }),
      });
      for (const activity of page) if (found.length < limit && matches(activity)) found.push(activity);
      if (page.length < 100) break;
      cursor = page[page.length - 1]?.id;
    }
    if (order === "asc") found.reverse();
    return {
      activities: await Promise.all(found.map((activity) => renderActivity(data, activity, context.viewer))),
    };
  },
});
