/**
 * What an activity's transaction will likely read besides its first lookups, asked for with them on a store that
 * answers reads fired together in one round trip and remembers them (`Store.readsAhead`, PostgresStore): the
 * version of the governing organization's policies, and the policies themselves unless compiled before (the
 * decision), the submitter's MFA policies (the MFA check) and credentials (the submitter's vote as rendered in the
 * answer), the organization's webhook endpoints (the outbox), and what the operation's handler says it reads first
 * (`ActivityOperation.readsAhead`). Each is then answered from the transaction's memory, and the activity's writes
 * go with its COMMIT instead of with a later read. On other stores nothing is asked ahead: each read is as cheap
 * where it is made.
 *
 * @module
 */
import type { DataReader } from "../../model/data.js";
import { readPoliciesAhead } from "../decisions/policy-set.js";
import type { AcceptedSubmission } from "./submission.js";

/** Asks for what `submission`'s transaction will likely read; resolves when all are in. */
export async function readAhead(data: DataReader, submission: AcceptedSubmission): Promise<void> {
  const { principal, organizationId, operation, parameters } = submission;
  await Promise.all([
    operation.readsAhead?.(data, parameters, organizationId),
    readPoliciesAhead(data, principal.organizationId),
    data.listAll("mfaPolicies", principal.userId),
    data.listAll("apiKeys", principal.userId),
    data.listAll("authenticators", principal.userId),
    data.listAll("oauthProviders", principal.userId),
    data.listAll("webhookEndpoints", organizationId),
  ]);
}
