import { CustodyError } from "../../common/errors.js";

/**
 * The refusal for a stamp header that cannot be read: 401 with Turnkey's message, whichever header it was
 * (`X-Stamp` or `X-Stamp-Webauthn`), so a client learns nothing about which check failed.
 */
export function malformedStampError(cause?: unknown): CustodyError {
  return new CustodyError(
    "UNAUTHENTICATED",
    "malformed activity stamp",
    { reason: "MALFORMED_STAMP" },
    cause === undefined ? undefined : { cause },
  );
}
