/**
 * The frame's embedded P-256 key: the key export and credential bundles are sealed to. Like the hosted frames it
 * lives in the frame origin's `localStorage` with an expiry (48 hours unless the stamper asks for another), so
 * a reload of the same app keeps the key an activity was already sealed to; the parent page, on another origin,
 * cannot read it.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

/** How long an embedded key lives when the stamper names no other lifetime. */
export const DEFAULT_EMBEDDED_KEY_TTL_MS = 48 * 60 * 60 * 1000;

const STORAGE_KEY = "custodian-frame-embedded-key";

interface StoredKey {
  privateKey: string;
  expiresAtMs: number;
}

function readStored(): StoredKey | undefined {
  const text = window.localStorage.getItem(STORAGE_KEY);
  if (text === null) return undefined;
  try {
    const stored = JSON.parse(text) as Partial<StoredKey>;
    if (typeof stored.privateKey === "string" && typeof stored.expiresAtMs === "number") {
      return { privateKey: stored.privateKey, expiresAtMs: stored.expiresAtMs };
    }
  } catch {
    // A value this code did not write is dropped below like an expired one.
  }
  return undefined;
}

/** The embedded private key, or undefined when there is none or it has expired (an expired one is removed). */
export function embeddedKey(): Uint8Array | undefined {
  const stored = readStored();
  if (stored === undefined || stored.expiresAtMs <= Date.now()) {
    clearEmbeddedKey();
    return undefined;
  }
  return hexToBytes(stored.privateKey);
}

/** The embedded key, created with the given lifetime when there is none. */
export function ensureEmbeddedKey(ttlMs: number = DEFAULT_EMBEDDED_KEY_TTL_MS): Uint8Array {
  const existing = embeddedKey();
  if (existing !== undefined) return existing;
  const privateKey = p256.utils.randomSecretKey();
  const stored: StoredKey = { privateKey: bytesToHex(privateKey), expiresAtMs: Date.now() + ttlMs };
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  return privateKey;
}

/** Forgets the embedded key. */
export function clearEmbeddedKey(): void {
  window.localStorage.removeItem(STORAGE_KEY);
}

/** The key's public half as the stamper reports it: hex of the 65-byte uncompressed point. */
export function publicKeyHex(privateKey: Uint8Array): string {
  return bytesToHex(p256.getPublicKey(privateKey, false));
}
