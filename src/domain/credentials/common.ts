/**
 * What every credential write shares: the write context, the user look-up and credential-location ids.
 *
 * @module
 */

import type { EngineServices } from "../../contract/services.js";
import { credentialScope, type DataReader, type DataWriter } from "../../model/data.js";
import type { OrganizationRecord, UserRecord } from "../../model/records.js";

/** What user creation needs from its caller. */
export interface CredentialWriteContext {
  readonly data: DataWriter;
  readonly now: number;
  readonly newId: () => string;
  readonly services: EngineServices;
  /**
   * The organization the request names, when there is one. Passkeys of an organization created by the same
   * request (a sub-organization's root users) take their allowed origins from it.
   */
  readonly organization?: OrganizationRecord;
}

/** A user of `organizationId`, or NOT_FOUND naming `field` (a user of another organization is not found). */
export async function requireUser(
  data: DataReader,
  organizationId: string,
  userId: string,
  field: string,
): Promise<UserRecord> {
  return data.requireInOrganization("users", userId, organizationId, "user", field);
}

/** The id of the record saying that `credential` lives in `organizationId`. */
export function credentialLocationId(
  kind: "apiKey" | "authenticator",
  credential: string,
  organizationId: string,
): string {
  return `${credentialScope(kind, credential)}@${organizationId}`;
}
