/**
 * Organization scoping: which organizations a principal may act in or read. A principal acts in its own
 * organization; it reads its own and its sub-organizations; a parent's credential may not write into a
 * sub-organization except through the activities that are made for it (authentication flows).
 *
 * @module
 */
import { CustodyError, type ErrorCode } from "../common/errors.js";
import type { Principal } from "./principal.js";
import type { OrganizationRecord } from "./records.js";

/**
 * A write naming an organization the credential may not act in is `INVALID_ARGUMENT` (400), as the hosted
 * service answers it ("organization mismatch", docs/spec/wire-protocol.md §4); a read of an organization outside the
 * credential's reach stays `PERMISSION_DENIED`.
 */
function mismatch(principal: Principal, organization: OrganizationRecord, verb: string, code: ErrorCode): CustodyError {
  return new CustodyError(
    code,
    `organization mismatch: the credential belongs to organization ${principal.organizationId} and cannot ${verb} organization ${organization.id}`,
    { field: "organizationId", reason: "ORGANIZATION_MISMATCH" },
  );
}

/** Who may submit an activity naming an organization (an operation row's `access`). */
export type SubmitAccess = "own" | "ownOrSubOrganization" | "ownViaParent";

/**
 * The organization a submission acts in. Usually the one it names, which must be the principal's own
 * (`ownOrSubOrganization`: or a sub-organization of it, for the authentication flows a parent runs). With
 * `ownViaParent`, a sub-organization's credential may name its parent, as sdk-browser's session log-in
 * does when it knows only the parent's id, and the activity then acts in the principal's own organization.
 */
export function actingOrganization(
  principal: Principal,
  named: OrganizationRecord,
  principalOrganization: OrganizationRecord,
  access: SubmitAccess,
): OrganizationRecord {
  if (principal.organizationId === named.id) return named;
  if (access === "ownOrSubOrganization" && named.parentOrganizationId === principal.organizationId) return named;
  if (access === "ownViaParent" && principalOrganization.parentOrganizationId === named.id)
    return principalOrganization;
  throw mismatch(principal, named, "write to", "INVALID_ARGUMENT");
}

/**
 * May `principal` read `organization`? Its own and its sub-organizations; `whoami` also answers when the
 * request names the parent of the principal's organization (sub-organization look-up via the parent).
 */
export function assertMayRead(
  principal: Principal,
  organization: OrganizationRecord,
  principalOrganization: OrganizationRecord,
  isWhoami: boolean,
): void {
  if (principal.organizationId === organization.id) return;
  if (organization.parentOrganizationId === principal.organizationId) return;
  if (isWhoami && principalOrganization.parentOrganizationId === organization.id) return;
  throw mismatch(principal, organization, "read", "PERMISSION_DENIED");
}
