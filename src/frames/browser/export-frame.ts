/**
 * The export frame (what export.turnkey.com is to Turnkey's clients). It holds the embedded key the app passes
 * as `targetPublicKey` to `export_wallet`, `export_private_key` or `export_wallet_account`, opens the signed
 * export bundle here, and shows the mnemonic or key in this frame's own document. Only `true` goes back to
 * the parent page; the embedded key is forgotten once a bundle is opened, as the hosted frame does.
 *
 * @module
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { hpkeOpenWithPrivateKey } from "../../crypto/hpke/suite.js";
import { type FrameRequest, serveFrame } from "./channel.js";
import { clearEmbeddedKey, embeddedKey, ensureEmbeddedKey, publicKeyHex } from "./embedded-key.js";
import { applySettings } from "./settings.js";
import { openSignedBundle } from "./signed-bundle.js";

function secretElement(): HTMLElement {
  const element = document.getElementById("key-div");
  if (element === null) throw new Error("the export frame's page has no #key-div");
  return element;
}

/** Opens an export bundle with the embedded key, then forgets the key. */
async function openExportBundle(request: FrameRequest): Promise<Uint8Array> {
  const data = openSignedBundle(request.value, { organizationId: request.organizationId });
  const { encappedPublic, ciphertext } = data;
  if (typeof encappedPublic !== "string" || typeof ciphertext !== "string") {
    throw new Error('missing "encappedPublic" or "ciphertext" in bundle signed data');
  }
  const key = embeddedKey();
  if (key === undefined) throw new Error("no embedded key: it expired or a bundle was already opened with it");
  let plaintext: Uint8Array | undefined;
  try {
    plaintext = await hpkeOpenWithPrivateKey(hexToBytes(encappedPublic), hexToBytes(ciphertext), key);
  } catch {
    plaintext = undefined;
  }
  if (plaintext === undefined) {
    throw new Error("unable to decrypt bundle using embedded key: it was sealed to another key or altered");
  }
  clearEmbeddedKey();
  return plaintext;
}

/** Shows the secret as the frame's only content. */
function display(secret: string): void {
  for (const child of Array.from(document.body.children)) {
    if (child instanceof HTMLElement && child.id !== "key-div" && child.tagName !== "SCRIPT") child.hidden = true;
  }
  const element = secretElement();
  element.textContent = secret;
  element.hidden = false;
}

/** The private key in the format the app asked for (hosted names: HEXADECIMAL, the default, and SOLANA). */
function encodeKey(privateKey: Uint8Array, keyFormat: unknown): string {
  if (keyFormat === undefined || keyFormat === "HEXADECIMAL") return `0x${bytesToHex(privateKey)}`;
  if (keyFormat === "SOLANA") {
    if (privateKey.length !== 32)
      throw new Error(`invalid private key length. Expected 32 bytes. Got ${privateKey.length}.`);
    const joined = new Uint8Array(64);
    joined.set(privateKey, 0);
    joined.set(ed25519.getPublicKey(privateKey), 32);
    return base58.encode(joined);
  }
  throw new Error(`unsupported key format: ${String(keyFormat)}`);
}

serveFrame({
  onOpen: (keyTtlMs) => publicKeyHex(ensureEmbeddedKey(keyTtlMs)),
  handlers: {
    INJECT_WALLET_EXPORT_BUNDLE: async (request) => {
      const wallet = new TextDecoder().decode(await openExportBundle(request));
      // A wallet with a passphrase is exported as `mnemonic\npassphrase`; the frame shows the mnemonic.
      display(wallet.split("\n")[0] as string);
      return { type: "BUNDLE_INJECTED", value: true };
    },
    INJECT_KEY_EXPORT_BUNDLE: async (request) => {
      display(encodeKey(await openExportBundle(request), request.keyFormat));
      return { type: "BUNDLE_INJECTED", value: true };
    },
    APPLY_SETTINGS: (request) => {
      applySettings(request.value, secretElement());
      return { type: "SETTINGS_APPLIED", value: true };
    },
    RESET_EMBEDDED_KEY: () => {
      clearEmbeddedKey();
      return { type: "EMBEDDED_KEY_RESET", value: null };
    },
  },
});
