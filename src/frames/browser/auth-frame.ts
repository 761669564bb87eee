/**
 * The auth frame (what auth.turnkey.com is to Turnkey's clients): the credential-bundle sign-ins (email auth,
 * OTP auth, recovery, read-write sessions). The app passes the embedded key as `targetPublicKey`; the frame
 * opens the `credentialBundle` (base58check of the compressed encapsulated key and the ciphertext) with it and
 * keeps the session's private key in memory, where it answers `STAMP_REQUEST`s with `X-Stamp` values. The
 * session key never leaves the frame.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base64urlnopad, createBase58check } from "@scure/base";
import { hpkeOpenWithPrivateKey } from "../../crypto/hpke/suite.js";
import { type FrameRequest, serveFrame } from "./channel.js";
import { clearEmbeddedKey, embeddedKey, ensureEmbeddedKey, publicKeyHex } from "./embedded-key.js";

const base58check = createBase58check(sha256);
const COMPRESSED_KEY_LENGTH = 33;

/** The session key of the injected bundle; memory only, gone with the frame. */
let credential: Uint8Array | undefined;

async function injectCredentialBundle(request: FrameRequest) {
  if (typeof request.value !== "string") throw new Error("the credential bundle must be a string");
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(request.value);
  } catch {
    throw new Error("the credential bundle is not base58check");
  }
  if (bytes.length <= COMPRESSED_KEY_LENGTH) {
    throw new Error(`bundle size ${bytes.length} is too low. Expecting a compressed public key and a ciphertext`);
  }
  const key = embeddedKey();
  if (key === undefined) throw new Error("no embedded key: it expired or was reset");
  let opened: Uint8Array | undefined;
  try {
    const enc = p256.Point.fromBytes(bytes.subarray(0, COMPRESSED_KEY_LENGTH)).toBytes(false);
    opened = await hpkeOpenWithPrivateKey(enc, bytes.subarray(COMPRESSED_KEY_LENGTH), key);
  } catch {
    opened = undefined;
  }
  if (opened === undefined) {
    throw new Error("unable to decrypt bundle using embedded key: it was sealed to another key or altered");
  }
  if (!p256.utils.isValidSecretKey(opened)) throw new Error("the credential bundle does not hold a P-256 key");
  credential = opened;
  return { type: "BUNDLE_INJECTED", value: true };
}

/** The `X-Stamp` value for `payload`: base64url of `{publicKey, scheme, signature}`, as API key stampers make. */
function stamp(request: FrameRequest) {
  if (credential === undefined) {
    throw new Error("cannot sign payload without credential: has a credential bundle been injected into the iframe?");
  }
  if (typeof request.value !== "string") throw new Error("the payload to stamp must be a string");
  const signature = p256.sign(new TextEncoder().encode(request.value), credential, { format: "der" });
  const value = JSON.stringify({
    publicKey: bytesToHex(p256.getPublicKey(credential, true)),
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    signature: bytesToHex(signature),
  });
  return { type: "STAMP", value: base64urlnopad.encode(new TextEncoder().encode(value)) };
}

function embeddedPublicKey() {
  const key = embeddedKey();
  return { type: "EMBEDDED_PUBLIC_KEY", value: key === undefined ? "" : publicKeyHex(key) };
}

serveFrame({
  onOpen: (keyTtlMs) => publicKeyHex(ensureEmbeddedKey(keyTtlMs)),
  handlers: {
    INJECT_CREDENTIAL_BUNDLE: injectCredentialBundle,
    INJECT_RECOVERY_BUNDLE: injectCredentialBundle,
    STAMP_REQUEST: stamp,
    GET_EMBEDDED_PUBLIC_KEY: embeddedPublicKey,
    INIT_EMBEDDED_KEY: () => {
      ensureEmbeddedKey();
      return embeddedPublicKey();
    },
    RESET_EMBEDDED_KEY: () => {
      clearEmbeddedKey();
      credential = undefined;
      return { type: "EMBEDDED_KEY_RESET", value: null };
    },
  },
});
