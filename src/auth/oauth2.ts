/**
 * OAuth 2.0 authorization-code exchange for `oauth2_authenticate` (Turnkey's "TLS fetcher" role): the key
 * client secrets are encrypted to, and the token endpoints the host allows.
 *
 * - Client secrets arrive sealed by `encryptOauth2ClientSecret` (`@turnkey/crypto`) to
 *   {@link Oauth2Exchange.publicKey}, a P-256 key of the engine's own, generated once and kept in the store
 *   sealed. They are opened only to be sealed again for the store, and to be sent to the token endpoint.
 * - Token endpoints come from the host (engine option `oauth2Providers`), one per provider: a request never
 *   names a URL, so no caller can make the engine reach an address of its choosing.
 * - The endpoint is not trusted to be brief: the exchange is bounded in time (the answer's last byte included)
 *   and in the bytes read, counted as they stream in.
 *
 * @module
 */

import { p256 } from "@noble/curves/nist.js";
import { readBoundedText } from "../common/bounded-body.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { bytesToHex, decodeUtf8Strict } from "../crypto/bytes.js";
import { openQuorumEnvelope, QuorumEnvelopeError } from "../crypto/hpke/index.js";
import type { SecretVault } from "../keys/secrets.js";
import { StoredP256Key } from "../keys/stored-p256-key.js";
import type { Store } from "../storage/store.js";

/** The providers of the API description's `v1Oauth2Provider`. */
export const OAUTH2_PROVIDERS = ["OAUTH2_PROVIDER_X", "OAUTH2_PROVIDER_DISCORD"] as const;
/** An OAuth 2.0 provider custodian can exchange codes with, once the host names its token endpoint. */
export type Oauth2Provider = (typeof OAUTH2_PROVIDERS)[number];

/** One provider's token endpoint, as the host configures it. */
export interface Oauth2ProviderConfig {
  /** The `https` (or, for tests, loopback `http`) URL of the provider's token endpoint. */
  tokenEndpoint: string;
  /** Time the whole exchange may take, the answer included (ms). Default 10 000. */
  timeoutMs?: number;
  /** Largest answer read, in bytes. Default 64 KiB. */
  maxAnswerBytes?: number;
}

/** Token endpoints by provider, e.g. `{ OAUTH2_PROVIDER_DISCORD: { tokenEndpoint: "https://..." } }`. */
export type Oauth2Providers = Readonly<Partial<Record<Oauth2Provider, Oauth2ProviderConfig>>>;

/** What the code is exchanged with. */
export interface Oauth2ExchangeRequest {
  provider: Oauth2Provider;
  clientId: string;
  clientSecret: string;
  authCode: string;
  redirectUri: string;
  codeVerifier: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** A token answer is an access token, an id token and a few short members: a few kilobytes. */
const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;
const KEY_PLACE = {
  record: "auth.oauth2ClientSecretKey",
  context: "engine:oauth2ClientSecretKey",
  name: "OAuth 2.0 client secret key",
};
const FIELDS = {
  secret: "parameters.encryptedClientSecret",
  code: "parameters.authCode",
  credential: "parameters.oauth2CredentialId",
} as const;

interface Endpoint {
  url: string;
  timeoutMs: number;
  maxAnswerBytes: number;
}

function positive(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw invalidArgument(`${field} must be a positive integer`, field);
  return value;
}

function endpointOf(provider: string, config: Oauth2ProviderConfig): Endpoint {
  const field = `oauth2Providers.${provider}`;
  let url: URL;
  try {
    url = new URL(config.tokenEndpoint);
  } catch {
    throw invalidArgument(`${field}.tokenEndpoint is not a URL`, `${field}.tokenEndpoint`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalidArgument(`${field}.tokenEndpoint must be an https URL`, `${field}.tokenEndpoint`);
  }
  return {
    url: url.href,
    timeoutMs: positive(config.timeoutMs, DEFAULT_TIMEOUT_MS, `${field}.timeoutMs`),
    maxAnswerBytes: positive(config.maxAnswerBytes, DEFAULT_MAX_ANSWER_BYTES, `${field}.maxAnswerBytes`),
  };
}

function unavailable(reason: string): CustodyError {
  return new CustodyError(
    "UNAVAILABLE",
    `the OAuth 2.0 provider's token endpoint gave no usable answer (${reason}); try again`,
    { field: FIELDS.credential, reason: "OAUTH2_PROVIDER_UNAVAILABLE" },
  );
}

/** Holds the client-secret key and the allowed token endpoints; the private key never leaves this object. */
export class Oauth2Exchange {
  readonly #key: StoredP256Key;
  readonly #endpoints = new Map<string, Endpoint>();

  constructor(providers: Oauth2Providers = {}, random: (length: number) => Uint8Array) {
    for (const [provider, config] of Object.entries(providers)) {
      if (!(OAUTH2_PROVIDERS as readonly string[]).includes(provider)) {
        throw invalidArgument(
          `oauth2Providers names ${provider}; the providers are ${OAUTH2_PROVIDERS.join(", ")}`,
          "oauth2Providers",
        );
      }
      if (config !== undefined) this.#endpoints.set(provider, endpointOf(provider, config));
    }
    this.#key = new StoredP256Key(KEY_PLACE, undefined, random);
  }

  /** Loads the stored key, or generates and stores one (the vault must be open). Idempotent. */
  async open(store: Store, secrets: SecretVault): Promise<void> {
    await this.#key.open(store, secrets);
  }

  /**
   * Lowercase hex of the 65-byte uncompressed public key client secrets are encrypted to: the
   * `dangerouslyOverrideTlsFetcherPublicKey` of `encryptOauth2ClientSecret`.
   */
  publicKey(): string {
    return bytesToHex(p256.getPublicKey(this.#key.key, false));
  }

  /**
   * Refuses a provider whose token endpoint the host did not configure (`FAILED_PRECONDITION`, reason
   * `OAUTH2_PROVIDER_NOT_CONFIGURED`, naming `field`).
   */
  requireConfigured(provider: Oauth2Provider, field: string): void {
    if (!this.#endpoints.has(provider)) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `this engine has no token endpoint for ${provider}: the host adds it to the oauth2Providers option`,
        { field, reason: "OAUTH2_PROVIDER_NOT_CONFIGURED" },
      );
    }
  }

  /**
   * The client secret inside `encryptedHex` (the hex envelope `encryptOauth2ClientSecret` made).
   *
   * @throws CustodyError `INVALID_ARGUMENT` naming `parameters.encryptedClientSecret`: not hex, not sealed to
   *   this engine's key, or not UTF-8 text.
   */
  openClientSecret(encryptedHex: string): string {
    const refused = (why: string) =>
      new CustodyError("INVALID_ARGUMENT", `${FIELDS.secret} ${why}`, {
        field: FIELDS.secret,
        reason: "OAUTH2_CLIENT_SECRET_INVALID",
      });
    if (!/^([0-9a-fA-F]{2})+$/.test(encryptedHex))
      throw refused("must be the hex envelope of encryptOauth2ClientSecret");
    let plaintext: Uint8Array;
    try {
      plaintext = openQuorumEnvelope(Buffer.from(encryptedHex, "hex"), this.#key.key);
    } catch (error) {
      if (error instanceof QuorumEnvelopeError) {
        throw refused(`does not open: ${error.message}; encrypt it to this engine's OAuth 2.0 client secret key`);
      }
      throw error;
    }
    const text = decodeUtf8Strict(plaintext);
    plaintext.fill(0);
    if (text === undefined || text === "") throw refused("does not hold a client secret (UTF-8 text)");
    return text;
  }

  /**
   * Exchanges an authorization code at the provider's token endpoint (RFC 6749 §4.1.3, with PKCE's
   * `code_verifier`) and returns the answer's `id_token`.
   *
   * @throws CustodyError `FAILED_PRECONDITION` for a provider with no endpoint; `INVALID_ARGUMENT` naming
   *   `parameters.authCode` when the provider refuses the code (`OAUTH2_CODE_REFUSED`) or answers without an
   *   id token; `UNAVAILABLE` naming `parameters.oauth2CredentialId` when no usable answer comes in time.
   */
  async exchange(request: Oauth2ExchangeRequest): Promise<string> {
    this.requireConfigured(request.provider, FIELDS.credential);
    const endpoint = this.#endpoints.get(request.provider) as Endpoint;
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code: request.authCode,
      redirect_uri: request.redirectUri,
      code_verifier: request.codeVerifier,
      client_id: request.clientId,
    });
    const basic = Buffer.from(
      `${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`,
    ).toString("base64");
    let response: Response;
    try {
      response = await fetch(endpoint.url, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
          authorization: `Basic ${basic}`,
        },
        body,
        redirect: "error",
        signal: AbortSignal.timeout(endpoint.timeoutMs),
      });
    } catch (error) {
      throw unavailable(transportReason(error, endpoint.timeoutMs));
    }
    const text = await readBounded(response, endpoint.maxAnswerBytes, endpoint.timeoutMs);
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw unavailable(`HTTP ${response.status} without a JSON body`);
    }
    const members = (answer !== null && typeof answer === "object" ? answer : {}) as Record<string, unknown>;
    if (!response.ok) {
      if (response.status >= 500) throw unavailable(`HTTP ${response.status}`);
      const code = typeof members.error === "string" ? members.error.slice(0, 64) : `HTTP ${response.status}`;
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `the OAuth 2.0 provider refused the authorization code (${JSON.stringify(code)}): it is wrong, expired, already used, or issued for another redirect URI or code verifier`,
        { field: FIELDS.code, reason: "OAUTH2_CODE_REFUSED" },
      );
    }
    if (typeof members.id_token !== "string" || members.id_token === "") {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        "the OAuth 2.0 provider's token answer holds no id_token: custodian signs in with the provider's OIDC id token",
        { field: FIELDS.code, reason: "OAUTH2_NO_ID_TOKEN" },
      );
    }
    return members.id_token;
  }
}

/** Why the request or its answer failed, in a few words (never the URL or the request). */
function transportReason(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown }).name;
  if (name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof cause === "string") return cause;
  return "the request failed";
}

/** The answer's body within `limit` bytes (see `readBoundedText`), or `UNAVAILABLE` saying why not. */
async function readBounded(response: Response, limit: number, timeoutMs: number): Promise<string> {
  let text: string | null;
  try {
    text = await readBoundedText(response, limit);
  } catch (error) {
    throw unavailable(transportReason(error, timeoutMs));
  }
  if (text === null) throw unavailable(`the answer is larger than ${limit} bytes`);
  return text;
}
