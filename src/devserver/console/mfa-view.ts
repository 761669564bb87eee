/**
 * The console's view of an activity's MFA: whose second factor it waits for and which methods would prove it
 * (the submitter's, while the activity is `ACTIVITY_STATUS_AUTHENTICATORS_NEEDED`; approvers', whose approvals
 * count only once their own steps are proven), by user name.
 *
 * @module
 */
import { openMfaSteps } from "../../domain/mfa.js";
import type { MfaMethodRecord, MfaStatusRecord } from "../../model/records.js";
import { type Html, html } from "./html.js";
import type { ConsoleSources } from "./parts.js";
import { table } from "./parts.js";

export interface MfaStanding {
  userName: string;
  policyName: string;
  status: MfaStatusRecord;
  /** The steps still open, by index into `status.requiredMethods`. */
  open: number[];
  /** Whether this is the submitter's MFA (else an approver's). */
  submitter: boolean;
}

function methodName(method: MfaMethodRecord): string {
  const type = method.type
    .replace(/^AUTHENTICATION_TYPE_/, "")
    .toLowerCase()
    .replaceAll("_", " ");
  return method.id === undefined ? type : `${type} ${method.id}`;
}

function stepText(step: { any: MfaMethodRecord[] }): string {
  const names = step.any.map(methodName);
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** Each MFA status of the activity, with its user's and policy's names. */
export async function mfaStandings(
  sources: ConsoleSources,
  organizationId: string,
  activityId: string,
  submitterId: string | undefined,
  userNames: ReadonlyMap<string, string>,
): Promise<MfaStanding[]> {
  const { mfaStatuses } = await sources.root.getMfaStatus({ organizationId, activityId });
  if (mfaStatuses.length === 0) return [];
  const policyNames = new Map<string, string>();
  for (const userId of new Set(mfaStatuses.map((status) => status.userId))) {
    const { mfaPolicies } = await sources.root.getMfaPolicies({ organizationId, userId });
    for (const policy of mfaPolicies) policyNames.set(policy.mfaPolicyId, policy.mfaPolicyName);
  }
  return mfaStatuses.map((rendered) => {
    const status: MfaStatusRecord = {
      userId: rendered.userId,
      mfaPolicyId: rendered.mfaPolicyId,
      requiredMethods: rendered.requiredMethods as MfaStatusRecord["requiredMethods"],
      satisfiedMethods: rendered.satisfiedMethods as MfaMethodRecord[],
    };
    return {
      userName: userNames.get(status.userId) ?? status.userId,
      policyName: policyNames.get(status.mfaPolicyId) ?? status.mfaPolicyId,
      status,
      open: openMfaSteps(status),
      submitter: status.userId === submitterId,
    };
  });
}

/** `waiting for alice to prove a passkey (MFA policy "tags need a passkey", step 2 of 2)`. */
export function mfaWaitingPhrase(standings: readonly MfaStanding[]): string {
  const submitter = standings.find((standing) => standing.submitter && standing.open.length > 0);
  if (submitter === undefined) return "waiting for a second factor";
  const next = submitter.open[0] as number;
  const steps = submitter.status.requiredMethods;
  return `waiting for ${submitter.userName} to prove ${stepText(steps[next] as { any: MfaMethodRecord[] })} (MFA policy "${submitter.policyName}", step ${next + 1} of ${steps.length})`;
}

/** Every MFA status, step by step: proven or still open. */
export function mfaSection(standings: readonly MfaStanding[]): Html {
  if (standings.length === 0) return html``;
  const rows = standings.flatMap((standing) =>
    standing.status.requiredMethods.map(
      (step, index) =>
        html`<tr class="${standing.open.includes(index) ? "mfa-open" : "mfa-proven"}"><td>${standing.userName}${standing.submitter ? " (submitter)" : " (approver)"}</td><td>${standing.policyName}</td><td>${index + 1} of ${standing.status.requiredMethods.length}</td><td>${stepText(step)}</td><td>${standing.open.includes(index) ? "open" : "proven"}</td></tr>`,
    ),
  );
  return html`<h2>Second factors</h2>${table(["user", "MFA policy", "step", "any of", "now"], rows, "no MFA policy matched")}`;
}
