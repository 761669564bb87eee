/**
 * The client side of a credential bundle: a `TurnkeyClient` stamping with the key the bundle delivered, and
 * asserting that an official client's request was refused.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { getPublicKey } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { expect } from "vitest";
import { bytesToHex } from "../../src/crypto/bytes.js";

/** A `TurnkeyClient` at `baseUrl` stamping with the P-256 private key (hex) a credential bundle delivered. */
export function sessionClient(baseUrl: string, privateKey: string): TurnkeyClient {
  const apiPublicKey = bytesToHex(getPublicKey(privateKey, true));
  return new TurnkeyClient({ baseUrl }, new ApiKeyStamper({ apiPublicKey, apiPrivateKey: privateKey }));
}

/** What `TurnkeyRequestError` carries; @turnkey/http and @turnkey/sdk-server each have their own class. */
export interface RequestError extends Error {
  code: number;
  details: { turnkeyErrorCode?: string }[] | null;
}

/** Awaits `promise`, expecting a `TurnkeyRequestError` of either official client. */
export async function requestRejection(promise: Promise<unknown>): Promise<RequestError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (e: unknown) => e,
  );
  expect((error as Error).name).toBe("TurnkeyRequestError");
  return error as RequestError;
}

/** The Turnkey reason code of a refusal (`INVALID_OIDC_TOKEN`, `API_KEY_EXPIRED`, ...). */
export function reasonOf(error: RequestError): string | undefined {
  return error.details?.[0]?.turnkeyErrorCode;
}
