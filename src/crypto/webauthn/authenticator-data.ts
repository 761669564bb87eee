import { sha256 } from "@noble/hashes/sha2.js";
import { bytesEqual, utf8ToBytes } from "../bytes.js";
import { asMap, decodeCbor, decodeFirstCbor } from "./cbor.js";
import { WebauthnRefusal } from "./refusal.js";

/** Authenticator data flag bits (WebAuthn §6.1). */
export const AUTHENTICATOR_FLAGS = {
  userPresent: 0x01,
  userVerified: 0x04,
  attestedCredentialData: 0x40,
  extensionData: 0x80,
} as const;

/** The credential an authenticator reports at registration. */
export interface AttestedCredential {
  /** The authenticator model's AAGUID (16 bytes; zeros when attestation is `none`). */
  aaguid: Uint8Array;
  /** The raw credential id. */
  credentialId: Uint8Array;
  /** The credential public key, exactly the COSE_Key bytes the authenticator wrote. */
  publicKeyCose: Uint8Array;
}

/** Parsed authenticator data. */
export interface AuthenticatorData {
  rpIdHash: Uint8Array;
  flags: number;
  signCount: number;
  /** Present when the AT flag is set (registration). */
  attestedCredential?: AttestedCredential;
}

const HEADER_BYTES = 37;
const AAGUID_BYTES = 16;
// WebAuthn Level 3 caps credential ids at 1023 bytes.
const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * Reads authenticator data: `rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian)`, then the attested
 * credential data when AT is set and an extensions map when ED is set, with nothing after them.
 *
 * @throws WebauthnRefusal `MALFORMED_AUTHENTICATOR_DATA`.
 */
export function parseAuthenticatorData(bytes: Uint8Array): AuthenticatorData {
  if (bytes.length < HEADER_BYTES) throw malformed(`is ${bytes.length} bytes, shorter than ${HEADER_BYTES}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = bytes[32] as number;
  const result: AuthenticatorData = {
    rpIdHash: bytes.slice(0, 32),
    flags,
    signCount: view.getUint32(33),
  };
  let offset = HEADER_BYTES;
  if ((flags & AUTHENTICATOR_FLAGS.attestedCredentialData) !== 0) {
    if (bytes.length < offset + AAGUID_BYTES + 2) throw malformed("ends inside the attested credential data");
    const aaguid = bytes.slice(offset, offset + AAGUID_BYTES);
    const idLength = view.getUint16(offset + AAGUID_BYTES);
    offset += AAGUID_BYTES + 2;
    if (idLength === 0 || idLength > MAX_CREDENTIAL_ID_BYTES)
      throw malformed(`has a credential id of ${idLength} bytes`);
    if (bytes.length < offset + idLength) throw malformed("ends inside the credential id");
    const credentialId = bytes.slice(offset, offset + idLength);
    offset += idLength;
    const publicKeyLength = credentialPublicKeyLength(bytes.subarray(offset), flags);
    const publicKeyCose = bytes.slice(offset, offset + publicKeyLength);
    offset += publicKeyLength;
    result.attestedCredential = { aaguid, credentialId, publicKeyCose };
  }
  if ((flags & AUTHENTICATOR_FLAGS.extensionData) !== 0) {
    const extensions = decodeCbor(bytes.subarray(offset), "MALFORMED_AUTHENTICATOR_DATA", "the extensions");
    if (asMap(extensions) === undefined) throw malformed("has extensions that are not a CBOR map");
    offset = bytes.length;
  }
  if (offset !== bytes.length) throw malformed(`has ${bytes.length - offset} unexpected trailing bytes`);
  return result;
}

/**
 * Checks the parts of authenticator data every ceremony shares: it belongs to `rpId` and the user was present.
 *
 * @throws WebauthnRefusal `RP_ID_MISMATCH` or `USER_NOT_PRESENT`.
 */
export function assertRpAndPresence(data: AuthenticatorData, rpId: string): void {
  if (!bytesEqual(data.rpIdHash, sha256(utf8ToBytes(rpId)))) {
    throw new WebauthnRefusal("RP_ID_MISMATCH", `authenticator data is not scoped to the relying party ${rpId}`);
  }
  if ((data.flags & AUTHENTICATOR_FLAGS.userPresent) === 0) {
    throw new WebauthnRefusal("USER_NOT_PRESENT", "authenticator data does not have the user-present flag");
  }
}

/**
 * How many bytes of `rest` the credential public key takes. Without extensions it is all of them, taken as
 * written; with extensions after it, the key must be canonical CBOR so that its end can be found.
 */
function credentialPublicKeyLength(rest: Uint8Array, flags: number): number {
  const what = "the credential public key";
  if ((flags & AUTHENTICATOR_FLAGS.extensionData) !== 0) {
    return decodeFirstCbor(rest, "MALFORMED_AUTHENTICATOR_DATA", what).length;
  }
  decodeCbor(rest, "MALFORMED_AUTHENTICATOR_DATA", what);
  return rest.length;
}

function malformed(problem: string): WebauthnRefusal {
  return new WebauthnRefusal("MALFORMED_AUTHENTICATOR_DATA", `authenticator data ${problem}`);
}
