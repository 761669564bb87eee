/**
 * A software WebAuthn authenticator for tests: real key pairs, real CBOR attestation objects (`none` and
 * `packed` self-attestation), real assertions. ES256 and EdDSA keys come from @noble/curves, RS256 from
 * node:crypto. {@link installNavigatorCredentials} plugs it into `navigator.credentials.get`, which is all
 * `@turnkey/webauthn-stamper` calls, so tests can produce genuine `X-Stamp-Webauthn` headers with the official
 * stamper.
 */
import { generateKeyPairSync, type KeyObject, sign as nodeSign, randomBytes } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { encode } from "cborg";
import { concatBytes, decodeBase64Url, encodeBase64Url, utf8ToBytes } from "../../src/crypto/bytes.js";

/** The credential algorithms this authenticator can make. EdDSA exists to exercise "unsupported algorithm". */
export type SoftwareAlgorithm = "ES256" | "RS256" | "EdDSA";

export interface SoftwareAuthenticatorOptions {
  /** Default ES256. */
  algorithm?: SoftwareAlgorithm;
  /** Attestation statement format produced by {@link SoftwareAuthenticator.create}; default `none`. */
  attestation?: "none" | "packed";
  /** 16 bytes; default random (a browser zeroes it for `none`, which the verifier does not require). */
  aaguid?: Uint8Array;
  /** How much the sign counter grows per assertion; 0 models a synced passkey. Default 1. */
  signCountStep?: number;
  /** Raw credential id; default 32 random bytes. */
  credentialId?: Uint8Array;
  /** Transports reported at registration, in wire form. Default `["AUTHENTICATOR_TRANSPORT_INTERNAL"]`. */
  transports?: string[];
}

/** One ceremony's inputs, as a browser would pass them. */
export interface CeremonyOptions {
  challenge: Uint8Array;
  rpId: string;
  origin: string;
  /** clientDataJSON `type`; defaults to the ceremony's own. */
  type?: string;
  /** Whether to set the UP flag; default true. */
  userPresent?: boolean;
  /** Authenticator extension outputs to append (sets the ED flag). */
  extensions?: Record<string, unknown>;
}

/** The wire `v1Attestation` (every member base64url), as @turnkey/http's `toInternalAttestation` builds it. */
export interface WireAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
}

/** A raw assertion, as `navigator.credentials.get` returns its parts. */
export interface SoftwareAssertion {
  credentialId: Uint8Array;
  authenticatorData: Uint8Array;
  clientDataJson: Uint8Array;
  signature: Uint8Array;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const FLAG_ED = 0x80;
const COSE_ALG: Record<SoftwareAlgorithm, number> = { ES256: -7, RS256: -257, EdDSA: -8 };

interface CredentialKey {
  cose: Uint8Array;
  sign(data: Uint8Array): Uint8Array;
}

/** A single-credential software authenticator. */
export class SoftwareAuthenticator {
  readonly algorithm: SoftwareAlgorithm;
  readonly credentialId: Uint8Array;
  /** The COSE_Key of the credential, as it appears in the attestation. */
  readonly publicKeyCose: Uint8Array;
  /** The counter the next assertion starts from; tests may set it to model a clone. */
  signCount = 0;
  readonly #key: CredentialKey;
  readonly #attestation: "none" | "packed";
  readonly #aaguid: Uint8Array;
  readonly #signCountStep: number;
  readonly #transports: string[];

  constructor(options: SoftwareAuthenticatorOptions = {}) {
    this.algorithm = options.algorithm ?? "ES256";
    this.credentialId = options.credentialId ?? new Uint8Array(randomBytes(32));
    this.#key = makeKey(this.algorithm);
    this.publicKeyCose = this.#key.cose;
    this.#attestation = options.attestation ?? "none";
    this.#aaguid = options.aaguid ?? new Uint8Array(randomBytes(16));
    this.#signCountStep = options.signCountStep ?? 1;
    this.#transports = options.transports ?? ["AUTHENTICATOR_TRANSPORT_INTERNAL"];
  }

  /** The credential id as base64url, the form stamps and storage use. */
  get credentialIdBase64Url(): string {
    return encodeBase64Url(this.credentialId);
  }

  /** `navigator.credentials.create`: a registration in the wire form. */
  create(options: CeremonyOptions): WireAttestation {
    const clientDataJson = clientData(options, "webauthn.create");
    const attested = concatBytes(this.#aaguid, uint16(this.credentialId.length), this.credentialId, this.#key.cose);
    const authData = authenticatorData(options, FLAG_AT, this.signCount, attested);
    const attStmt =
      this.#attestation === "packed"
        ? new Map<string, unknown>([
            ["alg", COSE_ALG[this.algorithm]],
            ["sig", this.#key.sign(concatBytes(authData, sha256(clientDataJson)))],
          ])
        : new Map<string, unknown>();
    const attestationObject = encodeCbor(
      new Map<string, unknown>([
        ["fmt", this.#attestation],
        ["attStmt", attStmt],
        ["authData", authData],
      ]),
    );
    return {
      credentialId: this.credentialIdBase64Url,
      clientDataJson: encodeBase64Url(clientDataJson),
      attestationObject: encodeBase64Url(attestationObject),
      transports: [...this.#transports],
    };
  }

  /** `navigator.credentials.get`: an assertion over the challenge, advancing the sign counter. */
  get(options: CeremonyOptions): SoftwareAssertion {
    this.signCount += this.#signCountStep;
    const clientDataJson = clientData(options, "webauthn.get");
    const authData = authenticatorData(options, 0, this.signCount, new Uint8Array());
    const signature = this.#key.sign(concatBytes(authData, sha256(clientDataJson)));
    return { credentialId: this.credentialId, authenticatorData: authData, clientDataJson, signature };
  }
}

/** An `X-Stamp-Webauthn` header value for an assertion, laid out as @turnkey/webauthn-stamper lays it out. */
export function webauthnStampHeader(assertion: SoftwareAssertion): string {
  return JSON.stringify({
    authenticatorData: encodeBase64Url(assertion.authenticatorData),
    clientDataJson: encodeBase64Url(assertion.clientDataJson),
    credentialId: encodeBase64Url(assertion.credentialId),
    signature: encodeBase64Url(assertion.signature),
  });
}

interface CredentialRequestOptionsLike {
  publicKey: {
    challenge: ArrayBuffer | ArrayBufferView;
    rpId: string;
    allowCredentials?: { id: ArrayBuffer | ArrayBufferView | string }[];
  };
}

/**
 * Installs a `navigator.credentials.get` that answers with `authenticator`'s assertions as if the page were
 * at `origin`, shaped like a browser's `PublicKeyCredential` (ArrayBuffers, `getClientExtensionResults`).
 * Node 20 has no `navigator`, so one is defined on `globalThis`. Returns the function that restores it.
 */
export function installNavigatorCredentials(authenticator: SoftwareAuthenticator, origin: string): () => void {
  const previous = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  const credentials = {
    get: async (options: CredentialRequestOptionsLike) => {
      const { challenge, rpId, allowCredentials = [] } = options.publicKey;
      const allowed = allowCredentials.map((credential) => encodeBase64Url(toBytes(credential.id)));
      if (allowed.length > 0 && !allowed.includes(authenticator.credentialIdBase64Url)) {
        throw new Error("NotAllowedError: no allowed credential on this authenticator");
      }
      const assertion = authenticator.get({ challenge: toBytes(challenge), rpId, origin });
      return {
        type: "public-key",
        id: encodeBase64Url(assertion.credentialId),
        rawId: toArrayBuffer(assertion.credentialId),
        authenticatorAttachment: "platform",
        response: {
          clientDataJSON: toArrayBuffer(assertion.clientDataJson),
          authenticatorData: toArrayBuffer(assertion.authenticatorData),
          signature: toArrayBuffer(assertion.signature),
          userHandle: null,
        },
        getClientExtensionResults: () => ({}),
      };
    },
  };
  Object.defineProperty(globalThis, "navigator", {
    value: { ...(previous?.value as object | undefined), credentials },
    configurable: true,
    writable: true,
  });
  return () => {
    if (previous === undefined) Reflect.deleteProperty(globalThis, "navigator");
    else Object.defineProperty(globalThis, "navigator", previous);
  };
}

function makeKey(algorithm: SoftwareAlgorithm): CredentialKey {
  if (algorithm === "ES256") {
    const secretKey = p256.utils.randomSecretKey();
    const point = p256.getPublicKey(secretKey, false);
    return {
      cose: encodeCbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, point.slice(1, 33)],
          [-3, point.slice(33, 65)],
        ]),
      ),
      // Authenticators do not normalize S, so neither does this one: high-S assertions must verify.
      sign: (data) => p256.sign(data, secretKey, { format: "der", lowS: false }),
    };
  }
  if (algorithm === "RS256") {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = publicKey.export({ format: "jwk" });
    return {
      cose: encodeCbor(
        new Map<number, unknown>([
          [1, 3],
          [3, -257],
          [-1, base64UrlMember(jwk.n)],
          [-2, base64UrlMember(jwk.e)],
        ]),
      ),
      sign: (data) => rsaSign(privateKey, data),
    };
  }
  const secretKey = ed25519.utils.randomSecretKey();
  return {
    cose: encodeCbor(
      new Map<number, unknown>([
        [1, 1],
        [3, -8],
        [-1, 6],
        [-2, ed25519.getPublicKey(secretKey)],
      ]),
    ),
    sign: (data) => ed25519.sign(data, secretKey),
  };
}

function rsaSign(privateKey: KeyObject, data: Uint8Array): Uint8Array {
  return new Uint8Array(nodeSign("sha256", data, privateKey));
}

function clientData(options: CeremonyOptions, type: string): Uint8Array {
  return utf8ToBytes(
    JSON.stringify({
      type: options.type ?? type,
      challenge: encodeBase64Url(options.challenge),
      origin: options.origin,
      crossOrigin: false,
    }),
  );
}

function authenticatorData(options: CeremonyOptions, extraFlags: number, signCount: number, attested: Uint8Array) {
  const extensions = options.extensions === undefined ? new Uint8Array() : encodeCbor(toMap(options.extensions));
  const flags =
    (options.userPresent === false ? 0 : FLAG_UP) |
    FLAG_UV |
    extraFlags |
    (options.extensions === undefined ? 0 : FLAG_ED);
  return concatBytes(sha256(utf8ToBytes(options.rpId)), Uint8Array.of(flags), uint32(signCount), attested, extensions);
}

function toMap(record: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(record));
}

function encodeCbor(value: unknown): Uint8Array {
  return new Uint8Array(encode(value));
}

function uint16(value: number): Uint8Array {
  return Uint8Array.of(value >>> 8, value & 0xff);
}

function uint32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

function base64UrlMember(value: string | undefined): Uint8Array {
  const bytes = value === undefined ? undefined : decodeBase64Url(value);
  if (bytes === undefined) throw new Error("RSA JWK export lacks a member");
  return bytes;
}

function toBytes(value: ArrayBuffer | ArrayBufferView | string): Uint8Array {
  if (typeof value === "string") return decodeBase64Url(value) ?? new Uint8Array();
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return Uint8Array.from(bytes).buffer;
}
