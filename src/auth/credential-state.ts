/**
 * Whether a credential may still act: an API key that exists and has not expired, a passkey that is still
 * registered. Checked when a stamp is verified and again inside the activity's transaction, so a key
 * deleted or expired in between cannot slip a request through.
 *
 * @module
 */

import { CustodyError } from "../common/errors.js";
import type { DataReader } from "../model/data.js";
import type { Principal } from "../model/principal.js";
import type { ApiKeyRecord } from "../model/records.js";

/** Whether `key` has expired at `now` (keys without `expirationSeconds` never do). */
export function isApiKeyExpired(key: ApiKeyRecord, now: number): boolean {
  return key.expirationSeconds !== null && now >= key.createdAtMs + Number(key.expirationSeconds) * 1000;
}

/** Refuses a principal whose stamping credential was deleted or has expired since it was authenticated. */
export async function assertCredentialCurrent(data: DataReader, principal: Principal, now: number): Promise<void> {
  const { credential } = principal;
  if (credential.id === null) return; // in-process: the host vouches for the caller
  if (credential.kind === "apiKey") {
    const key = await data.get("apiKeys", credential.id);
    if (!key) {
      throw new CustodyError("UNAUTHENTICATED", "the API key that signed this request no longer exists", {
        reason: "PUBLIC_KEY_NOT_FOUND",
      });
    }
    if (isApiKeyExpired(key, now))
      throw new CustodyError("UNAUTHENTICATED", "expired api key", { reason: "API_KEY_EXPIRED" });
  } else if (credential.kind === "authenticator" && !(await data.get("authenticators", credential.id))) {
    throw new CustodyError("UNAUTHENTICATED", "the passkey that signed this request is no longer registered", {
      reason: "CREDENTIAL_NOT_FOUND",
    });
  }
}
