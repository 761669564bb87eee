/**
 * Organization scoping: which organizations a principal may act in or read. A principal acts in its own
 * organization; it reads its own and its sub-organizations; a parent's credential may not write into a
 * sub-organization except through the activities that are made for it (authentication flows).
 *
 * @module
 */
import { CustodyError } from "../errors.js";
import type { Principal } from "./principal.js";
import type { OrganizationRecord } from "./records.js";

function mismatch(principal: Principal, organization: OrganizationRecord, verb: string): CustodyError {
  return new CustodyError(
    "PERMISSION_DENIED",
    `organization mismatch: the credential belongs to organization ${principal.organizationId} and cannot ${verb} organization ${organization.id}`,
    { field: "organizationId", reason: "ORGANIZATION_MISMATCH" },
  );
}

/** May `principal` submit activities naming `organization`? */
export function assertMaySubmit(
  principal: Principal,
  organization: OrganizationRecord,
  access: "own" | "ownOrSubOrganization",
): void {
  if (principal.organizationId === organization.id) return;
  if (access === "ownOrSubOrganization" && organization.parentOrganizationId === principal.organizationId) return;
  throw mismatch(principal, organization, "write to");
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
  throw mismatch(principal, organization, "read");
}
