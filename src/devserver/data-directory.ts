/**
 * The dev server's data directory: its key-encryption key, its store, and the root credentials of the
 * organization it bootstraps on first start.
 *
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes, randomBytes } from "@noble/hashes/utils.js";
import type { CustodyEngine } from "../engine/engine.js";
import { FileStore } from "../storage/file/index.js";
import { MemoryStore } from "../storage/memory.js";
import type { Store } from "../storage/store.js";

/** What `<data>/root-api-key.json` holds. `apiPrivateKey` only when the server generated the key. */
export interface RootCredentials {
  organizationId: string;
  userId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
  /** The engine's bundle-signing public key, for `dangerouslyOverrideSignerPublicKey`. */
  signerPublicKey?: string;
}

export function readCredentials(path: string): RootCredentials | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")) as RootCredentials;
}

/** Reuses the organization of an earlier start when the store still has it; else bootstraps one. */
export async function bootstrap(
  engine: CustodyEngine,
  path: string,
  rootPublicKey: string | undefined,
): Promise<RootCredentials> {
  const previous = readCredentials(path);
  if (previous && (rootPublicKey === undefined || rootPublicKey === previous.apiPublicKey)) {
    const known = await engine
      .as({ userId: previous.userId })
      .getWhoami({ organizationId: previous.organizationId })
      .then(
        () => true,
        () => false,
      );
    if (known) return previous;
  }
  let apiPublicKey = rootPublicKey ?? previous?.apiPublicKey;
  let apiPrivateKey = rootPublicKey === undefined ? previous?.apiPrivateKey : undefined;
  if (apiPublicKey === undefined || (rootPublicKey === undefined && apiPrivateKey === undefined)) {
    const secret = p256.utils.randomSecretKey();
    apiPrivateKey = bytesToHex(secret);
    apiPublicKey = bytesToHex(p256.getPublicKey(secret, true));
  }
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "custodian dev",
    rootUsers: [
      { userName: "root", apiKeys: [{ apiKeyName: "root", publicKey: apiPublicKey, curveType: "API_KEY_CURVE_P256" }] },
    ],
    rootQuorumThreshold: 1,
  });
  const credentials: RootCredentials = {
    organizationId,
    userId: rootUserIds[0] as string,
    apiPublicKey,
    ...(apiPrivateKey ? { apiPrivateKey } : {}),
  };
  writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}

/**
 * The key-encryption key of a data directory: read from `<data>/key-encryption-key` (64 hex digits), or
 * generated there with mode 0600 on first start. Whoever can read that file can unseal the store's
 * secrets; hosts that hold their key elsewhere embed the engine and pass `keyEncryptionKey` themselves.
 */
function keyEncryptionKeyOf(dataDirectory: string): { key: Uint8Array; path: string; created: boolean } {
  const path = join(dataDirectory, "key-encryption-key");
  if (existsSync(path)) {
    const text = readFileSync(path, "utf8").trim();
    if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${path} must hold 64 hex digits (a 32-byte key)`);
    return { key: hexToBytes(text), path, created: false };
  }
  const key = randomBytes(32);
  writeFileSync(path, `${bytesToHex(key)}\n`, { mode: 0o600, flag: "wx" });
  return { key, path, created: true };
}

export async function openStorage(
  dataDirectory: string,
  memory: boolean,
): Promise<{ store: Store; keyEncryptionKey?: Uint8Array; description: string }> {
  if (memory) return { store: new MemoryStore(), description: "memory (nothing is kept after exit)" };
  const kek = keyEncryptionKeyOf(dataDirectory);
  const store = await FileStore.open(join(dataDirectory, "store"));
  const keyNote = kek.created
    ? `generated a key-encryption key in ${kek.path} (mode 0600)`
    : `key-encryption key from ${kek.path}`;
  return { store, keyEncryptionKey: kek.key, description: `file store in ${store.directory}; ${keyNote}` };
}
