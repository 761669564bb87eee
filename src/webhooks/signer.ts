/**
 * The engine's webhook signing key: Ed25519, signing `v1.ed25519.<keyId>.<timestampMs>.<eventId>.` followed
 * by the body bytes, which is what `verifyTurnkeyWebhookSignature` (`@turnkey/crypto`) rebuilds and checks.
 * Receivers find the public key in the JWKS the HTTP adapter serves at
 * `GET /public/v1/discovery/webhooks/jwks`.
 *
 * The key is the host's (`webhookSigningKey` engine option) or, when absent, generated once and kept in the
 * store sealed like every other secret, so a durable store signs with the same key across restarts.
 *
 * @module
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { bytesToHex, concatBytes, encodeBase64Url, utf8ToBytes } from "../crypto/bytes.js";
import type { SecretVault } from "../keys/secrets.js";
import type { RandomSource } from "../model/random.js";
import type { Store } from "../storage/store.js";

const SIGNING_KEY_RECORD = "webhooks.signingKey";
const SIGNING_KEY_CONTEXT = "engine:webhookSigningKey";

/** The signature contract's version and algorithm (the `X-Turnkey-Signature-*` headers). */
export const SIGNATURE_VERSION = "v1";
export const SIGNATURE_ALGORITHM = "ed25519";

/** One key of the webhook JWKS (docs `api-reference/queries/get-webhook-jwks.mdx`). */
export interface WebhookJwk {
  kid: string;
  kty: "OKP";
  crv: "Ed25519";
  alg: "EdDSA";
  use: "sig";
  /** base64url (no padding) of the 32-byte public key. */
  x: string;
  turnkey_signature_algorithm: "ed25519";
  turnkey_signature_version: "v1";
}

/** The webhook JWKS: the keys a receiver may verify deliveries with. */
export interface WebhookJwks {
  keys: WebhookJwk[];
}

/** What signing one attempt gives: the headers that carry the signature. */
export interface WebhookSignature {
  keyId: string;
  /** Lowercase hex of the 64-byte Ed25519 signature. */
  signature: string;
}

/**
 * The RFC 7638 thumbprint of the public key: a key id anyone holding the JWK can recompute, stable for as
 * long as the key is, and free of the `.` that separates the signed input's fields.
 */
function thumbprint(x: string): string {
  return encodeBase64Url(sha256(utf8ToBytes(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`)));
}

export class WebhookSigner {
  #key: Uint8Array | undefined;
  #publicKey: Uint8Array | undefined;
  #opening: Promise<void> | undefined;

  /**
   * @param hostKey The `webhookSigningKey` engine option, if any (a 32-byte Ed25519 secret key; copied).
   * @param random Where a generated key's bytes come from.
   * @throws CustodyError `INVALID_ARGUMENT` naming `webhookSigningKey` when it is not 32 bytes.
   */
  constructor(
    hostKey: Uint8Array | undefined,
    private readonly random: RandomSource,
  ) {
    if (hostKey !== undefined) {
      if (hostKey.length !== 32) {
        throw invalidArgument("webhookSigningKey must be a 32-byte Ed25519 secret key", "webhookSigningKey", {
          reason: "INVALID_SIGNING_KEY",
        });
      }
      this.#use(hostKey.slice());
    }
  }

  #use(key: Uint8Array): void {
    this.#key = key;
    this.#publicKey = ed25519.getPublicKey(key);
  }

  /**
   * Loads the stored key, or generates and stores one, in a transaction of its own (the vault must be
   * open). A host key needs neither. Idempotent; concurrent calls share one load.
   */
  open(store: Store, secrets: SecretVault): Promise<void> {
    if (this.#key !== undefined) return Promise.resolve();
    this.#opening ??= secrets
      .persistentKey(store, SIGNING_KEY_RECORD, SIGNING_KEY_CONTEXT, () => this.random(32))
      .then(
        (key) => this.#use(key),
        (error: unknown) => {
          this.#opening = undefined;
          throw error;
        },
      );
    return this.#opening;
  }

  #ready(): { key: Uint8Array; publicKey: Uint8Array } {
    if (this.#key === undefined || this.#publicKey === undefined) {
      throw new CustodyError("INTERNAL", "the webhook signer is used before it was opened");
    }
    return { key: this.#key, publicKey: this.#publicKey };
  }

  /** The key id receivers look the key up by (`X-Turnkey-Signature-Key-Id`, the JWK's `kid`). */
  keyId(): string {
    return thumbprint(encodeBase64Url(this.#ready().publicKey));
  }

  /** Lowercase hex of the 32-byte public key, the form `verifyTurnkeyWebhookSignature` takes. */
  publicKeyHex(): string {
    return bytesToHex(this.#ready().publicKey);
  }

  /** Signs one attempt: the contract's prefix with this attempt's timestamp and the event id, then the body. */
  sign(input: { timestampMs: string; eventId: string; body: Uint8Array }): WebhookSignature {
    const { key } = this.#ready();
    const keyId = this.keyId();
    const prefix = utf8ToBytes(
      `${SIGNATURE_VERSION}.${SIGNATURE_ALGORITHM}.${keyId}.${input.timestampMs}.${input.eventId}.`,
    );
    return { keyId, signature: bytesToHex(ed25519.sign(concatBytes(prefix, input.body), key)) };
  }

  /** The JWKS receivers verify with. */
  jwks(): WebhookJwks {
    const x = encodeBase64Url(this.#ready().publicKey);
    return {
      keys: [
        {
          kid: thumbprint(x),
          kty: "OKP",
          crv: "Ed25519",
          alg: "EdDSA",
          use: "sig",
          x,
          turnkey_signature_algorithm: "ed25519",
          turnkey_signature_version: "v1",
        },
      ],
    };
  }
}
