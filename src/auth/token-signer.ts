/**
 * The engine's token key: the P-256 key that signs session JWTs (in place of Turnkey's notarizer) and OTP
 * verification tokens (in place of its TLS fetcher). Generated once and kept in the store sealed, like the
 * bundle signer, unless the host passes `sessionSigningKey`. Clients check both kinds of token against
 * {@link TokenSigner.publicKey}: `verifySessionJwtSignature(jwt, key)` and
 * `verifyOtpVerificationToken(token, key)` of `@turnkey/crypto`.
 *
 * Two signature rules, as Turnkey's clients verify them: a session JWT is signed over
 * SHA-256(SHA-256(header.payload)), a verification token is a standard ES256 JWS (one SHA-256). The
 * different `typ`-free claim sets (`session_type` versus `verification_type`) are checked as well, so one
 * kind of token can never pass as the other.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { bytesToHex, decodeBase64Url, encodeBase64Url, utf8ToBytes } from "../crypto/bytes.js";
import type { SecretVault } from "../keys/secrets.js";
import { StoredP256Key } from "../keys/stored-p256-key.js";
import type { VerificationClaims } from "../model/principal.js";
import type { Store } from "../storage/store.js";

const TOKEN_KEY = { record: "auth.tokenSignerKey", context: "engine:tokenSignerKey", name: "token signer" };
const HEADER = encodeBase64Url(utf8ToBytes(JSON.stringify({ alg: "ES256", typ: "JWT" })));

/** How a signed token's signature input is hashed before ECDSA. */
type TokenKind = "session" | "verification";

/** The claims of a session JWT, as `@turnkey/core`'s `parseSession` reads them. */
export interface SessionClaims {
  /** Seconds since the epoch. */
  exp: number;
  public_key: string;
  /** `SESSION_TYPE_READ_WRITE`, `SESSION_TYPE_READ_ONLY`, or the name of the session profile it was issued under. */
  session_type: string;
  user_id: string;
  organization_id: string;
  /** For a session issued under a session profile: the profile's id and scope. */
  session_profile_id?: string;
  scope?: string;
}

function tokenRefused(message: string, field: string, reason: string): CustodyError {
  return new CustodyError("UNAUTHENTICATED", message, { field, reason });
}

/** Holds the token key and signs and checks tokens with it; the private key never leaves this object. */
export class TokenSigner {
  readonly #key: StoredP256Key;
  #publicKey: Uint8Array | undefined;

  constructor(hostKey: Uint8Array | undefined, random: (length: number) => Uint8Array) {
    if (hostKey !== undefined && (hostKey.length !== 32 || !p256.utils.isValidSecretKey(hostKey))) {
      throw invalidArgument("sessionSigningKey must be a 32-byte P-256 private key", "sessionSigningKey");
    }
    this.#key = new StoredP256Key(TOKEN_KEY, hostKey, random);
    if (hostKey !== undefined) this.#publicKey = p256.getPublicKey(hostKey, false);
  }

  /** Loads the stored key, or generates and stores one (the vault must be open). Idempotent. */
  async open(store: Store, secrets: SecretVault): Promise<void> {
    this.#publicKey ??= p256.getPublicKey(await this.#key.open(store, secrets), false);
  }

  #ready(): Uint8Array {
    return this.#key.key;
  }

  #verifyingKey(): Uint8Array {
    this.#ready();
    return this.#publicKey as Uint8Array;
  }

  /** Lowercase hex of the 65-byte uncompressed public key, as `@turnkey/crypto`'s verifiers take it. */
  publicKey(): string {
    this.#ready();
    return bytesToHex(this.#publicKey as Uint8Array);
  }

  /** A session JWT with `claims`. */
  signSession(claims: SessionClaims): string {
    return this.#sign(claims, "session");
  }

  /** A verification token with `claims`. */
  signVerification(claims: VerificationClaims): string {
    return this.#sign(claims, "verification");
  }

  /**
   * The claims of a session JWT this engine signed and that has not expired at `now`.
   *
   * @throws CustodyError `UNAUTHENTICATED` naming `field`: `SESSION_INVALID` for a token that is malformed
   *   or not signed by this engine, `SESSION_EXPIRED` for an expired one.
   */
  verifySession(token: string, now: number, field: string): SessionClaims {
    const claims = this.#verify(token, "session", field, "SESSION_INVALID");
    const valid =
      typeof claims.exp === "number" &&
      typeof claims.public_key === "string" &&
      (claims.session_type === "SESSION_TYPE_READ_WRITE" || claims.session_type === "SESSION_TYPE_READ_ONLY") &&
      typeof claims.user_id === "string" &&
      typeof claims.organization_id === "string";
    if (!valid) throw tokenRefused("the session token is malformed", field, "SESSION_INVALID");
    if (now >= (claims.exp as number) * 1000) throw tokenRefused("the session has expired", field, "SESSION_EXPIRED");
    return claims as unknown as SessionClaims;
  }

  /**
   * The claims of a verification token this engine signed and that has not expired at `now`.
   *
   * @throws CustodyError `UNAUTHENTICATED` naming `field`: `VERIFICATION_TOKEN_INVALID` for a token that is
   *   malformed or not signed by this engine, `VERIFICATION_TOKEN_EXPIRED` for an expired one.
   */
  verifyVerification(token: string, now: number, field: string): VerificationClaims {
    const claims = this.#verify(token, "verification", field, "VERIFICATION_TOKEN_INVALID");
    const members = ["id", "verification_type", "contact", "organization_id", "public_key", "exp"] as const;
    if (members.some((member) => typeof claims[member] !== "string") || !/^[0-9]{1,16}$/.test(String(claims.exp))) {
      throw tokenRefused("the verification token is malformed", field, "VERIFICATION_TOKEN_INVALID");
    }
    if (now >= Number(claims.exp)) {
      throw tokenRefused("the verification token has expired", field, "VERIFICATION_TOKEN_EXPIRED");
    }
    return claims as unknown as VerificationClaims;
  }

  #sign(claims: object, kind: TokenKind): string {
    const input = `${HEADER}.${encodeBase64Url(utf8ToBytes(JSON.stringify(claims)))}`;
    // noble hashes with SHA-256 before signing (its default prehash): once for a standard ES256 token,
    // over a first SHA-256 for session JWTs.
    const message = kind === "session" ? sha256(utf8ToBytes(input)) : utf8ToBytes(input);
    const signature = p256.sign(message, this.#ready(), { format: "compact" });
    return `${input}.${encodeBase64Url(signature)}`;
  }

  #verify(token: string, kind: TokenKind, field: string, reason: string): Record<string, unknown> {
    const parts = token.split(".");
    const [header, payload, signature] = parts;
    const malformed = () => tokenRefused("the token is not a JWT this engine signed", field, reason);
    if (parts.length !== 3 || header !== HEADER || payload === undefined || signature === undefined) throw malformed();
    const signatureBytes = decodeBase64Url(signature);
    const payloadBytes = decodeBase64Url(payload);
    if (signatureBytes?.length !== 64 || !payloadBytes) throw malformed();
    const input = utf8ToBytes(`${header}.${payload}`);
    const message = kind === "session" ? sha256(input) : input;
    if (!p256.verify(signatureBytes, message, this.#verifyingKey(), { lowS: false })) {
      throw malformed();
    }
    let claims: unknown;
    try {
      claims = JSON.parse(new TextDecoder().decode(payloadBytes));
    } catch {
      throw malformed();
    }
    if (claims === null || typeof claims !== "object" || Array.isArray(claims)) throw malformed();
    return claims as Record<string, unknown>;
  }
}
