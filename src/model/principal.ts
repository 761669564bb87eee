/**
 * Who is acting. Over HTTP the stamp names the principal; in-process the host names it with
 * `engine.as({ userId })`.
 *
 * @module
 */

/** The claims of a verification token, as `verifyOtpVerificationToken` of `@turnkey/crypto` requires them. */
export interface VerificationClaims {
  id: string;
  verification_type: string;
  contact: string;
  organization_id: string;
  /** The client key bound at verification; `""` when the V1 verification named none. */
  public_key: string;
  /** Milliseconds since the epoch, as a decimal string (Turnkey's format, not JWT seconds). */
  exp: string;
}

/** How the principal proved itself for this request. */
export interface StampCredential {
  /**
   * `attested`: an `X-Stamp-Attested` stamp (a verification or OIDC token and a signature by the key it
   * binds); `session`: a read-only session JWT in `X-Session`.
   */
  kind: "apiKey" | "authenticator" | "inProcess" | "attested" | "session";
  /** The API key or authenticator id, or the verification token's id; null in-process. */
  id: string | null;
  /** The public key (hex) or credential id that signed; empty in-process. */
  publicKey: string;
  /** `SIGNATURE_SCHEME_*`; `SIGNATURE_SCHEME_IN_PROCESS` for calls that carry no stamp. */
  scheme: string;
  /** The stamp's signature (hex or base64url as the scheme prints it); empty in-process. */
  signature: string;
  /** `v1CredentialType` of the credential, for policies (`credentials[0].type`). */
  type: string;
  /** For an attested stamp carrying an OTP verification token: its claims (the log-in spends the token). */
  verification?: VerificationClaims;
}

/** An authenticated caller. */
export interface Principal {
  userId: string;
  /** The organization that holds the user. */
  organizationId: string;
  credential: StampCredential;
}

/** What a host passes to `engine.as(...)`. */
export interface PrincipalInput {
  userId: string;
  /** Checked against the user's organization when given. */
  organizationId?: string;
}

export const IN_PROCESS_SCHEME = "SIGNATURE_SCHEME_IN_PROCESS";

export function inProcessCredential(): StampCredential {
  return {
    kind: "inProcess",
    id: null,
    publicKey: "",
    scheme: IN_PROCESS_SCHEME,
    signature: "",
    type: "CREDENTIAL_TYPE_IN_PROCESS",
  };
}
