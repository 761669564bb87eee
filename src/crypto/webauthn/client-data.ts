import { bytesEqual, decodeBase64Url, decodeUtf8Strict } from "../bytes.js";
import { ownString } from "../stamp/json-members.js";
import { WebauthnRefusal } from "./refusal.js";

/** The members of `clientDataJSON` that the server checks. */
export interface ClientData {
  type: string;
  /** The decoded challenge bytes. */
  challenge: Uint8Array;
  origin: string;
}

/** What a ceremony expects of its client data. */
export interface ExpectedClientData {
  type: "webauthn.create" | "webauthn.get";
  challenge: Uint8Array;
  /** Allowed origins, compared exactly (scheme, host and port). */
  origins: readonly string[];
}

/**
 * Reads `clientDataJSON`: UTF-8 JSON object with string `type`, base64url `challenge` and string `origin`.
 * Other members (`crossOrigin`, `topOrigin`, ...) are ignored.
 *
 * @throws WebauthnRefusal `MALFORMED_CLIENT_DATA`.
 */
export function parseClientData(bytes: Uint8Array): ClientData {
  const text = decodeUtf8Strict(bytes);
  let json: unknown;
  try {
    json = text === undefined ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const type = ownString(json, "type");
  const encodedChallenge = ownString(json, "challenge");
  const origin = ownString(json, "origin");
  const challenge = encodedChallenge === undefined ? undefined : decodeBase64Url(encodedChallenge);
  if (type === undefined || challenge === undefined || origin === undefined) {
    throw new WebauthnRefusal(
      "MALFORMED_CLIENT_DATA",
      "client data must be a JSON object with string type, base64url challenge and string origin",
    );
  }
  return { type, challenge, origin };
}

/**
 * Checks client data against what the ceremony expects.
 *
 * @throws WebauthnRefusal `WRONG_CEREMONY_TYPE`, `CHALLENGE_MISMATCH` or `ORIGIN_NOT_ALLOWED`.
 */
export function assertClientData(clientData: ClientData, expected: ExpectedClientData): void {
  if (clientData.type !== expected.type) {
    throw new WebauthnRefusal(
      "WRONG_CEREMONY_TYPE",
      `client data type is ${clientData.type}, expected ${expected.type}`,
    );
  }
  if (!bytesEqual(clientData.challenge, expected.challenge)) {
    throw new WebauthnRefusal("CHALLENGE_MISMATCH", "client data challenge does not match the expected challenge");
  }
  if (!expected.origins.includes(clientData.origin)) {
    throw new WebauthnRefusal("ORIGIN_NOT_ALLOWED", `origin ${clientData.origin} is not allowed`);
  }
}
