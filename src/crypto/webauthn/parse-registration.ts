import { sha256 } from "@noble/hashes/sha2.js";
import { bytesEqual, concatBytes, decodeBase64Url, encodeBase64Url } from "../bytes.js";
import { assertRpAndPresence, parseAuthenticatorData } from "./authenticator-data.js";
import { asBytes, asMap, decodeCbor } from "./cbor.js";
import { assertClientData, parseClientData } from "./client-data.js";
import { type CoseAlgorithm, type CosePublicKey, importCosePublicKey } from "./cose-key.js";
import { WebauthnRefusal } from "./refusal.js";
import { verifyCoseSignature } from "./verify-cose-signature.js";

/** The wire `v1Attestation`: what `navigator.credentials.create` returned, base64url-encoded. */
export interface WebauthnAttestation {
  /** base64url of the credential's rawId. */
  credentialId: string;
  /** base64url of the raw clientDataJSON bytes. */
  clientDataJson: string;
  /** base64url of the CBOR attestation object. */
  attestationObject: string;
  /** `AUTHENTICATOR_TRANSPORT_*` values, passed through (the request schema checks the enum). */
  transports: readonly string[];
}

/** What {@link parseRegistration} needs: the wire authenticator parameters and the relying party. */
export interface RegistrationInput {
  attestation: WebauthnAttestation;
  /** The wire `challenge`: base64url of the challenge bytes given to `navigator.credentials.create`. */
  challenge: string;
  /** The relying party id the credential must be scoped to. */
  rpId: string;
  /** Allowed origins of the registering page, compared exactly. */
  origins: readonly string[];
  /**
   * Dotted path of the authenticator parameters in the request, e.g. `parameters.authenticators[0]`; refusals
   * name fields under it (`parameters.authenticators[0].attestation.attestationObject`). Defaults to none.
   */
  path?: string;
}

/**
 * How the attestation statement was checked: `none` (no statement) or `self` (`packed` signed by the
 * credential key itself). Neither says anything about the authenticator's make: custodian keeps no attestation
 * trust anchors.
 */
export type AttestationType = "none" | "self";

/** A verified passkey registration, ready to store. */
export interface WebauthnRegistration {
  /** base64url (no padding) of the raw credential id: the form `X-Stamp-Webauthn` carries it in. */
  credentialId: string;
  /** The credential public key: the authenticator's exact COSE_Key bytes. */
  publicKeyCose: Uint8Array;
  alg: CoseAlgorithm;
  /** 16 bytes (all zeros for `none` attestation from most browsers). */
  aaguid: Uint8Array;
  attestationType: AttestationType;
  signCount: number;
  transports: string[];
}

/**
 * Verifies a WebAuthn registration (`navigator.credentials.create` result) the way the wire sends it in
 * `create_authenticators`, `create_users` and `create_sub_organization`:
 *
 * clientDataJSON has `type` `webauthn.create`, the given challenge and an allowed origin; the attestation
 * object is CBOR `{fmt, attStmt, authData}`; authData is scoped to `rpId`, has UP set and carries attested
 * credential data whose id equals `credentialId` and whose key is ES256 (P-256) or RS256.
 *
 * Attestation formats: `none` (empty statement) and `packed` self-attestation (the statement's `alg` is the
 * credential's and its `sig` over `authData ‖ SHA-256(clientDataJSON)` verifies with the credential key).
 * Every other format, and `packed` with a certificate chain, is refused: with no trust anchors to check a
 * chain against, custodian could not verify more than `none` gives, and would rather not record a claim it did
 * not check. Relying parties should request `attestation: "none"`, the WebAuthn default.
 *
 * @throws WebauthnRefusal (`INVALID_ARGUMENT`) naming the field at fault, e.g.
 * `parameters.authenticators[0].attestation.attestationObject`, with the reason in `details.reason`.
 */
export function parseRegistration(input: RegistrationInput): WebauthnRegistration {
  const { attestation } = input;
  const prefix = input.path === undefined || input.path === "" ? "" : `${input.path}.`;
  const fields = {
    challenge: `${prefix}challenge`,
    credentialId: `${prefix}attestation.credentialId`,
    clientDataJson: `${prefix}attestation.clientDataJson`,
    attestationObject: `${prefix}attestation.attestationObject`,
  };

  const challenge = decodeField(input.challenge, fields.challenge, "MALFORMED_CHALLENGE");
  const credentialId = decodeField(attestation.credentialId, fields.credentialId, "MALFORMED_CREDENTIAL_ID");
  const clientDataBytes = decodeField(attestation.clientDataJson, fields.clientDataJson, "MALFORMED_CLIENT_DATA");
  const attestationBytes = decodeField(
    attestation.attestationObject,
    fields.attestationObject,
    "MALFORMED_ATTESTATION",
  );

  const clientData = atField(fields.clientDataJson, () => parseClientData(clientDataBytes));
  atField(fields.clientDataJson, () =>
    assertClientData(clientData, { type: "webauthn.create", challenge, origins: input.origins }),
  );

  return atField(fields.attestationObject, () => {
    const object = readAttestationObject(attestationBytes);
    const authData = parseAuthenticatorData(object.authData);
    assertRpAndPresence(authData, input.rpId);
    const credential = authData.attestedCredential;
    if (credential === undefined) {
      throw new WebauthnRefusal("MALFORMED_ATTESTATION", "authenticator data has no attested credential data");
    }
    if (!bytesEqual(credential.credentialId, credentialId)) {
      throw new WebauthnRefusal("CREDENTIAL_ID_MISMATCH", "the attested credential id differs from credentialId");
    }
    const publicKey = importCosePublicKey(credential.publicKeyCose);
    const attestationType = verifyStatement(object, publicKey, clientDataBytes);
    return {
      credentialId: encodeBase64Url(credentialId),
      publicKeyCose: credential.publicKeyCose,
      alg: publicKey.alg,
      aaguid: credential.aaguid,
      attestationType,
      signCount: authData.signCount,
      transports: [...attestation.transports],
    };
  });
}

interface AttestationObject {
  fmt: string;
  attStmt: Map<unknown, unknown>;
  authData: Uint8Array;
}

function readAttestationObject(bytes: Uint8Array): AttestationObject {
  const map = asMap(decodeCbor(bytes, "MALFORMED_ATTESTATION", "the attestation object"));
  const fmt = map?.get("fmt");
  const attStmt = asMap(map?.get("attStmt"));
  const authData = asBytes(map?.get("authData"));
  if (typeof fmt !== "string" || attStmt === undefined || authData === undefined) {
    throw new WebauthnRefusal(
      "MALFORMED_ATTESTATION",
      "the attestation object must be a CBOR map with fmt (text), attStmt (map) and authData (bytes)",
    );
  }
  return { fmt, attStmt, authData };
}

function verifyStatement(object: AttestationObject, publicKey: CosePublicKey, clientData: Uint8Array): AttestationType {
  const { fmt, attStmt } = object;
  if (fmt === "none") {
    if (attStmt.size !== 0) throw new WebauthnRefusal("MALFORMED_ATTESTATION", "a none attestation must be empty");
    return "none";
  }
  if (fmt === "packed" && !attStmt.has("x5c")) {
    const sig = asBytes(attStmt.get("sig"));
    if (attStmt.get("alg") !== publicKey.alg || sig === undefined) {
      throw new WebauthnRefusal(
        "MALFORMED_ATTESTATION",
        "a packed self-attestation needs the credential's alg and a sig byte string",
      );
    }
    if (!verifyCoseSignature(publicKey, concatBytes(object.authData, sha256(clientData)), sig)) {
      throw new WebauthnRefusal("ATTESTATION_SIGNATURE_INVALID", "the packed self-attestation signature is invalid");
    }
    return "self";
  }
  throw new WebauthnRefusal(
    "UNSUPPORTED_ATTESTATION_FORMAT",
    `attestation format ${fmt}${fmt === "packed" ? " with a certificate chain" : ""} is not supported; ` +
      'request attestation "none"',
  );
}

function decodeField(value: string, field: string, reason: WebauthnRefusal["reason"]): Uint8Array {
  const bytes = decodeBase64Url(value);
  if (bytes === undefined || bytes.length === 0) throw new WebauthnRefusal(reason, "must be base64url").atField(field);
  return bytes;
}

function atField<T>(field: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof WebauthnRefusal && error.field === undefined) throw error.atField(field);
    throw error;
  }
}
