/**
 * What the proxy's endpoints share: the engine as the proxy's user, the configuration, and the readers of
 * request members.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { decodeBase64Url, decodeUtf8Strict } from "../crypto/bytes.js";
import type { CustodyEngine } from "../engine/engine.js";
import type { VerificationClaims } from "../model/principal.js";
import type { AuthProxyOptions, RequestContact } from "./options.js";

export type Body = Record<string, unknown>;

export const DEFAULT_PROVIDERS = ["email", "sms", "passkey", "wallet", "google", "apple", "facebook", "x", "discord"];

/** The largest verified sub-organizations one contact may be checked against (one person's sign-ups). */
const VERIFIED_PAGE = 100;

/** A string member, bounded: the engine checks the exact rules of each. */
export const str = v.pipe(v.string(), v.maxLength(16_384));
export const optionalStr = v.optional(str);

/** The proxy's engine calls, shared by its endpoints. */
export class AuthProxy {
  readonly acting: CustodyEngine;

  constructor(
    readonly engine: CustodyEngine,
    readonly options: AuthProxyOptions,
  ) {
    this.acting = engine.as({ userId: options.userId, organizationId: options.organizationId });
  }

  get organizationId(): string {
    return this.options.organizationId;
  }

  assertEnabled(provider: string): void {
    const enabled = this.options.enabledProviders ?? DEFAULT_PROVIDERS;
    if (!enabled.includes(provider)) {
      throw new CustodyError("PERMISSION_DENIED", `${provider} sign-in is not enabled for this app`, {
        reason: "AUTH_METHOD_NOT_ENABLED",
      });
    }
  }

  /**
   * The sub-organizations where a spent verification token proved `contact`, first created first. A contact
   * merely stored somewhere (by someone who never proved it) is not an account of its owner's.
   */
  async verifiedSubOrganizations(contact: RequestContact): Promise<string[]> {
    const { organizationIds } = await this.acting.getVerifiedSubOrgIds({
      organizationId: this.organizationId,
      filterType: contact.otpType === "OTP_TYPE_SMS" ? "PHONE_NUMBER" : "EMAIL",
      filterValue: contact.value,
      paginationOptions: { limit: String(VERIFIED_PAGE) },
    });
    return organizationIds;
  }
}

export function activityResult(response: { activity: { result: unknown } }, member: string): Body {
  return ((response.activity.result as Body | null)?.[member] ?? {}) as Body;
}

/** The unverified claims of a JWT: for routing only, the engine verifies the token itself. */
export function peekClaims(token: string, field: string): Body {
  const payload = token.split(".")[1];
  const bytes = payload === undefined ? undefined : decodeBase64Url(payload);
  const text = bytes && decodeUtf8Strict(bytes);
  try {
    const claims: unknown = text === undefined ? undefined : JSON.parse(text);
    if (claims && typeof claims === "object") return claims as Body;
  } catch {
    // reported below
  }
  throw new CustodyError("UNAUTHENTICATED", "the token is not a JWT", { field, reason: "VERIFICATION_TOKEN_INVALID" });
}

/** The contact a verification token's claims name (unverified until the engine checks the token). */
export function contactOfClaims(claims: Body | VerificationClaims): RequestContact | undefined {
  const otpType = claims.verification_type;
  if ((otpType !== "OTP_TYPE_EMAIL" && otpType !== "OTP_TYPE_SMS") || typeof claims.contact !== "string") {
    return undefined;
  }
  return { otpType, value: claims.contact };
}

export function otpTypeOf(value: string): "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS" {
  if (value === "OTP_TYPE_EMAIL" || value === "OTP_TYPE_SMS") return value;
  throw new CustodyError("INVALID_ARGUMENT", "otpType must be OTP_TYPE_EMAIL or OTP_TYPE_SMS", { field: "otpType" });
}
