/**
 * OIDC token verification against issuers the host trusts, for registering OAuth providers (and, later,
 * for OAuth logins). Keys come from the host: a JWKS given inline or a JWKS URL, per issuer.
 *
 * @module
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import { CustodyError, invalidArgument, isCustodyError } from "../common/errors.js";

/** Where an issuer's signing keys come from, and which audiences (client ids) it may issue tokens for. */
export type OidcIssuerConfig = ({ jwks: JSONWebKeySet } | { jwksUri: string }) & {
  /**
   * Client ids this engine accepts tokens for. When given, a token for any other audience is refused; when
   * omitted, any audience is accepted and stored as the provider's audience.
   */
  audiences?: readonly string[];
};

/** Trusted issuers by their `iss` value, e.g. `{ "https://accounts.google.com": { jwksUri: "..." } }`. */
export type OidcIssuers = Readonly<Record<string, OidcIssuerConfig>>;

/** The identity a verified token names. */
export interface VerifiedOidcToken {
  issuer: string;
  audience: string;
  subject: string;
  /** Every claim, for callers that check more (a login's nonce). */
  payload: JWTPayload;
}

// Asymmetric algorithms only: an HMAC key would have to be shared with the issuer, and `none` signs nothing.
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

interface Issuer {
  keys: JWTVerifyGetKey;
  audiences: readonly string[] | undefined;
}

function invalidToken(message: string, field: string, cause?: unknown): CustodyError {
  return new CustodyError(
    "INVALID_ARGUMENT",
    `invalid OIDC token: ${message}`,
    { field, reason: "INVALID_OIDC_TOKEN" },
    { cause },
  );
}

/** Verifies compact OIDC ID tokens (JWS) against the host's trusted issuers. */
export class OidcVerifier {
  readonly #issuers = new Map<string, Issuer>();

  constructor(issuers: OidcIssuers = {}) {
    for (const [issuer, config] of Object.entries(issuers)) {
      const field = `oidcIssuers[${JSON.stringify(issuer)}]`;
      this.#issuers.set(issuer, { keys: keySource(config, field), audiences: config.audiences });
    }
  }

  /** Whether tokens from `issuer` can be verified. */
  trusts(issuer: string): boolean {
    return this.#issuers.has(issuer);
  }

  /**
   * Verifies `token` at time `now` (ms): a JWS with an asymmetric algorithm, from a trusted issuer, signed by
   * one of its keys, with `iss`, `sub`, `aud` and an `exp` in the future (and `nbf`, `iat` when present).
   *
   * @throws CustodyError `INVALID_ARGUMENT` (reason `INVALID_OIDC_TOKEN`) naming `field` for a bad token,
   * `FAILED_PRECONDITION` for an issuer the engine does not trust, `UNAVAILABLE` when the issuer's keys
   * cannot be fetched.
   */
  async verify(token: string, now: number, field: string): Promise<VerifiedOidcToken> {
    let alg: unknown;
    let claimedIssuer: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
      claimedIssuer = decodeJwt(token).iss;
    } catch (error) {
      throw invalidToken("not a compact JWT", field, error);
    }
    if (typeof alg !== "string" || !ALGORITHMS.includes(alg)) {
      throw invalidToken(
        `algorithm ${String(alg)} is not accepted; tokens must be signed with an asymmetric key`,
        field,
      );
    }
    if (typeof claimedIssuer !== "string" || claimedIssuer === "")
      throw invalidToken("the iss claim is missing", field);
    const issuer = this.#issuers.get(claimedIssuer);
    if (issuer === undefined) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `OIDC issuer ${claimedIssuer} is not trusted by this engine: add it to the oidcIssuers option, or register the provider with oidcClaims`,
        { field, reason: "OIDC_ISSUER_NOT_TRUSTED", issuer: claimedIssuer },
      );
    }
    const payload = await this.#verifySignatureAndClaims(token, claimedIssuer, issuer, now, field);
    return {
      issuer: claimedIssuer,
      audience: pickAudience(payload.aud, issuer.audiences, field),
      subject: payload.sub as string,
      payload,
    };
  }

  async #verifySignatureAndClaims(
    token: string,
    iss: string,
    issuer: Issuer,
    now: number,
    field: string,
  ): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, issuer.keys, {
        issuer: iss,
        algorithms: ALGORITHMS,
        currentDate: new Date(now),
        requiredClaims: ["iss", "sub", "aud", "exp"],
        ...(issuer.audiences === undefined ? {} : { audience: [...issuer.audiences] }),
      });
      if (typeof payload.sub !== "string" || payload.sub === "") throw invalidToken("the sub claim is empty", field);
      return payload;
    } catch (error) {
      throw explain(error, field);
    }
  }
}

function keySource(config: OidcIssuerConfig, field: string): JWTVerifyGetKey {
  if ("jwks" in config) {
    if (!Array.isArray(config.jwks?.keys))
      throw invalidArgument(`${field}.jwks must be a JWKS ({ keys: [...] })`, `${field}.jwks`);
    return createLocalJWKSet(config.jwks);
  }
  let url: URL;
  try {
    url = new URL(config.jwksUri);
  } catch (error) {
    throw new CustodyError(
      "INVALID_ARGUMENT",
      `${field}.jwksUri is not a URL`,
      { field: `${field}.jwksUri` },
      { cause: error },
    );
  }
  const remote = createRemoteJWKSet(url);
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      // Key selection errors say something about the token; anything else is the fetch of the key set.
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw new IssuerKeysUnavailable(url.href, error);
    }
  };
}

/** The issuer's key set could not be fetched or read. */
class IssuerKeysUnavailable extends Error {
  constructor(href: string, cause: unknown) {
    super(`could not fetch the key set at ${href}`, { cause });
  }
}

/** The audience to store: the token's only one, or the one of several that the issuer config allows. */
function pickAudience(aud: JWTPayload["aud"], allowed: readonly string[] | undefined, field: string): string {
  const audiences = typeof aud === "string" ? [aud] : (aud ?? []);
  const candidates = allowed === undefined ? audiences : audiences.filter((audience) => allowed.includes(audience));
  const [first, ...rest] = candidates;
  if (first === undefined || first === "") throw invalidToken("the aud claim is empty", field);
  if (rest.length > 0) throw invalidToken("the token names several audiences; configure the accepted ones", field);
  return first;
}

/** Maps jose's errors to custody errors a caller can act on. */
function explain(error: unknown, field: string): CustodyError {
  if (isCustodyError(error)) return error;
  if (error instanceof errors.JWTExpired) return invalidToken("the token has expired", field, error);
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return invalidToken("the signature does not verify with the issuer's keys", field, error);
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return invalidToken("no key of the issuer matches the token", field, error);
  if (error instanceof errors.JWTClaimValidationFailed) {
    const what =
      error.claim === "aud" ? "the audience is not one this engine accepts" : `claim ${error.claim}: ${error.reason}`;
    return invalidToken(what, field, error);
  }
  if (error instanceof IssuerKeysUnavailable) {
    return new CustodyError(
      "UNAVAILABLE",
      `the OIDC issuer's keys are unavailable (${error.message}); try again`,
      { field, reason: "OIDC_KEYS_UNAVAILABLE" },
      { cause: error },
    );
  }
  if (error instanceof errors.JOSEError) return invalidToken(error.message, field, error);
  return new CustodyError("INTERNAL", "OIDC token verification failed unexpectedly", { field }, { cause: error });
}
