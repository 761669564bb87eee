/**
 * The read path: validate, check the principal may read the named organization, answer from one
 * consistent view. Queries are never policy-gated.
 *
 * @module
 */
import type { QueryContext, QueryOperation } from "../../contract/operation.js";
import { assertMayRead } from "../../model/access.js";
import { DataReader } from "../../model/data.js";
import type { Principal } from "../../model/principal.js";
import { activityViewer } from "./pending.js";
import type { PipelineCore } from "./submission.js";
import { parseWith } from "./validate.js";

export async function runQuery(
  core: PipelineCore,
  operation: QueryOperation,
  body: unknown,
  principal: Principal,
): Promise<unknown> {
  const request = parseWith(operation.request, body, "") as { organizationId: string };
  return core.store.read(async (reader) => {
    const data = new DataReader(reader);
    const organization = await data.require("organizations", request.organizationId, "organization", "organizationId");
    const own = await data.require("organizations", principal.organizationId, "organization");
    assertMayRead(principal, organization, own, operation.path === "whoami");
    const now = core.clock();
    const viewer = activityViewer(data, principal.userId, now);
    const context: QueryContext = { data, principal, organization, now, services: core.services, viewer };
    return operation.handler(context, request);
  });
}
