/**
 * The import frame (what import.turnkey.com is to Turnkey's clients). The app injects the signed import target
 * of `init_import_wallet` or `init_import_private_key`; the user types or pastes the secret into this frame's
 * text area; the frame seals it to the target and hands the parent page only the sealed bundle
 * `{"encappedPublic","ciphertext"}` for `import_wallet` / `import_private_key`.
 *
 * @module
 */
// noble's hex, not crypto/bytes': that one is Node's Buffer, which a browser lacks.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { hpkeSealToTarget } from "../../crypto/hpke/suite.js";
import { type FrameRequest, serveFrame } from "./channel.js";
import { applySettings } from "./settings.js";
import { openSignedBundle } from "./signed-bundle.js";

/** The target of the injected import bundle; single use, like the engine's target key. */
let targetPublicKey: string | undefined;

function plaintextElement(): HTMLTextAreaElement {
  const element = document.getElementById("plaintext");
  if (!(element instanceof HTMLTextAreaElement)) throw new Error("the import frame's page has no #plaintext");
  return element;
}

/** The entered secret, trimmed. */
function enteredSecret(what: string): string {
  const text = plaintextElement().value.trim();
  if (text === "") throw new Error(`no ${what} entered`);
  return text;
}

/** The private key bytes of the text in the format the app names (HEXADECIMAL, the default, or SOLANA). */
function decodeKey(text: string, keyFormat: unknown): Uint8Array {
  if (keyFormat === undefined || keyFormat === "HEXADECIMAL") {
    const hex = text.startsWith("0x") ? text.slice(2) : text;
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error("a HEXADECIMAL private key is 64 hex digits");
    return hexToBytes(hex);
  }
  if (keyFormat === "SOLANA") {
    let bytes: Uint8Array;
    try {
      bytes = base58.decode(text);
    } catch {
      throw new Error("a SOLANA private key is base58");
    }
    if (bytes.length !== 64) throw new Error(`invalid SOLANA key length. Expected 64 bytes. Got ${bytes.length}.`);
    return bytes.subarray(0, 32);
  }
  throw new Error(`unsupported key format: ${String(keyFormat)}`);
}

/** The injected target, checked before the entered secret is read so a refusal leaves the text area as it was. */
function requireTarget(): string {
  if (targetPublicKey === undefined) throw new Error("no import bundle injected: inject one before extracting");
  return targetPublicKey;
}

/** Seals the secret to the target, which is then used up, and empties the text area. */
async function sealTo(target: string, plaintext: Uint8Array): Promise<string> {
  try {
    const { enc, ciphertext } = await hpkeSealToTarget(plaintext, target);
    targetPublicKey = undefined;
    plaintextElement().value = "";
    return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) });
  } finally {
    plaintext.fill(0);
  }
}

function injectImportBundle(request: FrameRequest) {
  const data = openSignedBundle(request.value, { organizationId: request.organizationId, userId: request.userId });
  if (typeof data.targetPublic !== "string") throw new Error('missing "targetPublic" in bundle signed data');
  targetPublicKey = data.targetPublic;
  return { type: "BUNDLE_INJECTED", value: true };
}

serveFrame({
  // Import needs no embedded key (the secret is sealed to the engine's target); the stamper still waits for one.
  onOpen: () => "",
  handlers: {
    INJECT_IMPORT_BUNDLE: injectImportBundle,
    EXTRACT_WALLET_ENCRYPTED_BUNDLE: async () => {
      const target = requireTarget();
      // Words pasted across lines or with doubled spaces are the same mnemonic.
      const mnemonic = enteredSecret("wallet mnemonic").split(/\s+/).join(" ");
      const bundle = await sealTo(target, new TextEncoder().encode(mnemonic));
      return { type: "ENCRYPTED_BUNDLE_EXTRACTED", value: bundle };
    },
    EXTRACT_KEY_ENCRYPTED_BUNDLE: async (request) => {
      const target = requireTarget();
      const key = decodeKey(enteredSecret("private key"), request.keyFormat);
      return { type: "ENCRYPTED_BUNDLE_EXTRACTED", value: await sealTo(target, key) };
    },
    APPLY_SETTINGS: (request) => {
      applySettings(request.value, plaintextElement());
      return { type: "SETTINGS_APPLIED", value: true };
    },
  },
});
