import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "../bytes.js";
import { assertRpAndPresence, parseAuthenticatorData } from "./authenticator-data.js";
import { assertClientData, parseClientData } from "./client-data.js";
import { importCosePublicKey } from "./cose-key.js";
import type { WebauthnStamp } from "./parse-webauthn-stamp.js";
import { WebauthnRefusal, type WebauthnRefusalReason } from "./refusal.js";
import { verifyCoseSignature } from "./verify-cose-signature.js";

/** What {@link verifyWebauthnAssertion} checks: the stamp, the exact body, and the stored credential. */
export interface WebauthnAssertionInput {
  stamp: WebauthnStamp;
  /** The raw HTTP body, exactly as received. */
  body: Uint8Array;
  /** The credential's COSE_Key as stored at registration. */
  publicKeyCose: Uint8Array;
  /** The relying party id the credential was registered for. */
  rpId: string;
  /** Allowed origins, compared exactly. */
  origins: readonly string[];
  /** The credential's sign counter as last stored (0 for a new credential). */
  previousSignCount: number;
}

/** The outcome of {@link verifyWebauthnAssertion}: the new counter to store, or why the stamp was refused. */
export type WebauthnAssertionResult = { ok: true; signCount: number } | { ok: false; reason: WebauthnRefusalReason };

/**
 * Verifies an `X-Stamp-Webauthn` assertion over the request body:
 *
 * clientDataJSON has `type` `webauthn.get`, the challenge `base64url(ascii(lowercase hex(SHA-256(body))))`
 * (what @turnkey/webauthn-stamper and @turnkey/http derive from the body) and an allowed origin;
 * authenticator data is scoped to `rpId` with UP set; the signature over
 * `authenticatorData ‖ SHA-256(clientDataJSON)` verifies with the stored key; and the sign counter went up
 * whenever either the stored or the new one is non-zero (synced passkeys keep both at 0).
 *
 * Never throws for bad input: a refusal comes back as `{ ok: false, reason }`; the HTTP adapter answers 401.
 */
export function verifyWebauthnAssertion(input: WebauthnAssertionInput): WebauthnAssertionResult {
  try {
    return { ok: true, signCount: checkAssertion(input) };
  } catch (error) {
    if (error instanceof WebauthnRefusal) return { ok: false, reason: error.reason };
    throw error;
  }
}

function checkAssertion(input: WebauthnAssertionInput): number {
  const { stamp } = input;
  const clientData = parseClientData(stamp.clientDataJson);
  assertClientData(clientData, { type: "webauthn.get", challenge: bodyChallenge(input.body), origins: input.origins });
  const authData = parseAuthenticatorData(stamp.authenticatorData);
  assertRpAndPresence(authData, input.rpId);
  const publicKey = importCosePublicKey(input.publicKeyCose);
  const signed = concatBytes(stamp.authenticatorData, sha256(stamp.clientDataJson));
  if (!verifyCoseSignature(publicKey, signed, stamp.signature)) {
    throw new WebauthnRefusal("SIGNATURE_INVALID", "the assertion signature is invalid");
  }
  const { signCount } = authData;
  if ((signCount !== 0 || input.previousSignCount !== 0) && signCount <= input.previousSignCount) {
    // A counter that did not move suggests a cloned authenticator (WebAuthn §6.1.1).
    throw new WebauthnRefusal("SIGN_COUNT_REGRESSION", "the sign counter did not increase");
  }
  return signCount;
}

/** The challenge a Turnkey stamper signs for `body`: the ASCII bytes of the lowercase hex SHA-256 digest. */
function bodyChallenge(body: Uint8Array): Uint8Array {
  return utf8ToBytes(bytesToHex(sha256(body)));
}
