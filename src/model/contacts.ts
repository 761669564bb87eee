/**
 * Users' contacts (email address, phone number) and which of them a one-time code proved. A contact is
 * verified in an organization once a verification token for it was spent there (a sign-up, an OTP log-in);
 * one stored without such proof (by a host's backend, or a user editing their own record) is only text.
 * Whatever finds an account from a contact alone, for a caller who is not the host, reads verified contacts
 * only: an unverified copy of someone's address in another sub-organization must neither capture their
 * log-in nor stand in its way.
 *
 * @module
 */
import type { DataReader } from "./data.js";
import type { OtpType, UserRecord } from "./records.js";

/** Contacts compare case-insensitively for email (as mail systems route them), exactly for phone numbers. */
export function sameContact(otpType: OtpType, a: string | null | undefined, b: string): boolean {
  if (a === null || a === undefined) return false;
  return otpType === "OTP_TYPE_EMAIL" ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** The user's contact of the kind `otpType` names. */
export function contactOf(user: UserRecord, otpType: OtpType): string | null {
  return otpType === "OTP_TYPE_SMS" ? user.userPhoneNumber : user.userEmail;
}

/** The key of the `verifiedContacts` record of `contact` in `organizationId`. */
export function verifiedContactId(organizationId: string, otpType: OtpType, contact: string): string {
  return JSON.stringify([organizationId, otpType, otpType === "OTP_TYPE_EMAIL" ? contact.toLowerCase() : contact]);
}

/** Whether a spent verification token proved `contact` in `organizationId`. */
export async function isContactVerified(
  data: DataReader,
  organizationId: string,
  otpType: OtpType,
  contact: string,
): Promise<boolean> {
  return (await data.get("verifiedContacts", verifiedContactId(organizationId, otpType, contact))) !== undefined;
}

/** The first user of `organizationId` holding `contact`, verified or not. */
export async function userHoldingContact(
  data: DataReader,
  organizationId: string,
  otpType: OtpType,
  contact: string,
): Promise<UserRecord | undefined> {
  const users = await data.listAll("users", organizationId);
  return users.find((user) => sameContact(otpType, contactOf(user, otpType), contact));
}

/** The first user of `organizationId` holding `contact` where it is verified, or undefined. */
export async function userWithVerifiedContact(
  data: DataReader,
  organizationId: string,
  otpType: OtpType,
  contact: string,
): Promise<UserRecord | undefined> {
  // The verified record is one read; most organizations a search passes have none, so no user list is read.
  if (!(await isContactVerified(data, organizationId, otpType, contact))) return undefined;
  return userHoldingContact(data, organizationId, otpType, contact);
}
