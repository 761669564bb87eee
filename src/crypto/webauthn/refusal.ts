import { CustodyError } from "../../common/errors.js";

/** Why a WebAuthn registration or assertion was refused. Stable strings: they reach error details and logs. */
export type WebauthnRefusalReason =
  | "MALFORMED_CHALLENGE"
  | "MALFORMED_CREDENTIAL_ID"
  | "MALFORMED_CLIENT_DATA"
  | "WRONG_CEREMONY_TYPE"
  | "CHALLENGE_MISMATCH"
  | "ORIGIN_NOT_ALLOWED"
  | "MALFORMED_AUTHENTICATOR_DATA"
  | "RP_ID_MISMATCH"
  | "USER_NOT_PRESENT"
  | "CREDENTIAL_ID_MISMATCH"
  | "MALFORMED_PUBLIC_KEY"
  | "UNSUPPORTED_ALGORITHM"
  | "MALFORMED_ATTESTATION"
  | "UNSUPPORTED_ATTESTATION_FORMAT"
  | "ATTESTATION_SIGNATURE_INVALID"
  | "SIGNATURE_INVALID"
  | "SIGN_COUNT_REGRESSION";

/**
 * An `INVALID_ARGUMENT` {@link CustodyError} with a typed WebAuthn reason (also in `details.reason`).
 * Parsing steps throw it without a field; registration names the request field it came from.
 */
export class WebauthnRefusal extends CustodyError {
  readonly reason: WebauthnRefusalReason;

  constructor(reason: WebauthnRefusalReason, message: string, field?: string, options?: { cause?: unknown }) {
    super("INVALID_ARGUMENT", message, field === undefined ? { reason } : { field, reason }, options);
    this.reason = reason;
  }

  /** The same refusal, naming `field` as the one at fault. */
  atField(field: string): WebauthnRefusal {
    return new WebauthnRefusal(this.reason, `${field}: ${this.message}`, field, { cause: this.cause });
  }
}
