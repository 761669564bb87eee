/**
 * `X-Stamp` stampers for the API-key curves the official ApiKeyStamper does not cover, written over
 * @noble/curves the way docs/spec/wire-protocol.md §1 describes them: secp256k1 signs SHA-256(body) as DER hex (the Go
 * SDK's `Test_Sign_SECP256K1`); ed25519 signs the raw body bytes (the JS wallet-stamper) or SHA-256(body) (the Go SDK).
 * They plug into @turnkey/http's `TurnkeyClient` like any stamper. Also: the registration parameters of a
 * software passkey.
 */
import { randomBytes } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { SoftwareAuthenticator } from "./software-authenticator.js";

export type NobleCurve = "secp256k1" | "ed25519";

export interface NobleStamperOptions {
  /** 32-byte secret key; default random. */
  secretKey?: Uint8Array;
  /** What an ed25519 key signs: the body itself (default) or its SHA-256 digest. */
  ed25519Message?: "body" | "sha256";
}

/** The curve type an API key of this curve is registered with. */
export const CURVE_TYPE = {
  secp256k1: "API_KEY_CURVE_SECP256K1",
  ed25519: "API_KEY_CURVE_ED25519",
} as const;

const SCHEME = {
  secp256k1: "SIGNATURE_SCHEME_TK_API_SECP256K1",
  ed25519: "SIGNATURE_SCHEME_TK_API_ED25519",
} as const;

/** A `TStamper` for a secp256k1 or ed25519 API key. */
export class NobleApiKeyStamper {
  readonly curve: NobleCurve;
  /** The `SIGNATURE_SCHEME_*` its stamps carry. */
  readonly scheme: (typeof SCHEME)[NobleCurve];
  /** Hex as registered: compressed SEC1 for secp256k1, 32 bytes for ed25519. */
  readonly publicKey: string;
  readonly #secretKey: Uint8Array;
  readonly #ed25519Message: "body" | "sha256";

  constructor(curve: NobleCurve, options: NobleStamperOptions = {}) {
    this.curve = curve;
    this.scheme = SCHEME[curve];
    this.#ed25519Message = options.ed25519Message ?? "body";
    if (curve === "secp256k1") {
      this.#secretKey = options.secretKey ?? secp256k1.utils.randomSecretKey();
      this.publicKey = bytesToHex(secp256k1.getPublicKey(this.#secretKey, true));
    } else {
      this.#secretKey = options.secretKey ?? ed25519.utils.randomSecretKey();
      this.publicKey = bytesToHex(ed25519.getPublicKey(this.#secretKey));
    }
  }

  /** The `v1ApiKeyParamsV2` that registers this key. */
  apiKeyParams(apiKeyName = `${this.curve} key`) {
    return { apiKeyName, publicKey: this.publicKey, curveType: CURVE_TYPE[this.curve] };
  }

  /** The signature hex over `body`, as the scheme defines it. */
  sign(body: string): string {
    const bytes = utf8ToBytes(body);
    if (this.curve === "secp256k1") {
      // noble hashes with SHA-256 first (prehash); the signature is DER, as every X-Stamp signature is.
      return bytesToHex(secp256k1.sign(bytes, this.#secretKey, { format: "der" }));
    }
    return bytesToHex(ed25519.sign(this.#ed25519Message === "body" ? bytes : sha256(bytes), this.#secretKey));
  }

  async stamp(body: string): Promise<{ stampHeaderName: string; stampHeaderValue: string }> {
    const stamp = { publicKey: this.publicKey, scheme: this.scheme, signature: this.sign(body) };
    return { stampHeaderName: "X-Stamp", stampHeaderValue: Buffer.from(JSON.stringify(stamp)).toString("base64url") };
  }
}

/** `AUTHENTICATOR_TRANSPORT_*`, as the request schema types them. */
export type AuthenticatorTransport =
  | "AUTHENTICATOR_TRANSPORT_BLE"
  | "AUTHENTICATOR_TRANSPORT_INTERNAL"
  | "AUTHENTICATOR_TRANSPORT_NFC"
  | "AUTHENTICATOR_TRANSPORT_USB"
  | "AUTHENTICATOR_TRANSPORT_HYBRID";

/**
 * The `v1AuthenticatorParamsV2` registering `authenticator`'s passkey: a fresh challenge and the attestation
 * the authenticator makes for it at `origin`, scoped to `rpId` (defaults: the engine's `localhost`).
 */
export function passkeyParams(
  authenticator: SoftwareAuthenticator,
  options: { rpId?: string; origin?: string; authenticatorName?: string } = {},
) {
  const challenge = new Uint8Array(randomBytes(32));
  const attestation = authenticator.create({
    challenge,
    rpId: options.rpId ?? "localhost",
    origin: options.origin ?? "http://localhost",
  });
  return {
    authenticatorName: options.authenticatorName ?? "passkey",
    challenge: Buffer.from(challenge).toString("base64url"),
    attestation: { ...attestation, transports: attestation.transports as AuthenticatorTransport[] },
  };
}
