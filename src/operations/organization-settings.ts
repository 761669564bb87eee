/**
 * An organization's own settings: `update_organization_name` (root quorum only, as the hosted service) and
 * the `get_organization_configs` query (features and root quorum).
 *
 * @module
 */
import * as v from "valibot";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, name } from "../contract/schema.js";

export const updateOrganizationName = defineActivity({
  method: "updateOrganizationName",
  path: "update_organization_name",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME",
      intent: "updateOrganizationNameIntent",
      result: "updateOrganizationNameResult",
      parameters: v.object({ organizationName: name }),
    },
  ],
  // Root-quorum-only (docs/spec/policy-language.md §3): no policy can allow it.
  policy: null,
  async handler(context, params) {
    const { organization } = context;
    await context.data.put("organizations", {
      ...organization,
      name: params.organizationName,
      updatedAtMs: context.now,
    });
    return { organizationId: organization.id, organizationName: params.organizationName };
  },
});

export const getOrganizationConfigs = defineQuery({
  method: "getOrganizationConfigs",
  path: "get_organization_configs",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const { organization } = context;
    return {
      configs: {
        features: organization.features.map((feature) => ({ ...feature })),
        quorum: { threshold: organization.rootQuorum.threshold, userIds: [...organization.rootQuorum.userIds] },
      },
    };
  },
});
