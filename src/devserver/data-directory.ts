/**
 * The dev server's data directory: its key-encryption key, its store, and the root credentials of the
 * organization it bootstraps on first start. A start that fails takes back what it created, so it leaves
 * the directory as it found it.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { bytesToHex, hexToBytes } from "../crypto/bytes.js";
import type { CustodyEngine } from "../engine/engine.js";
import { FileStore } from "../storage/file/index.js";
import { MemoryStore } from "../storage/memory.js";
import { type AvailabilityChange, PostgresStore } from "../storage/postgres/index.js";
import type { Store } from "../storage/store.js";

/** What the root credentials file holds: everything a client needs. `apiPrivateKey` only when the server generated the key. */
export interface RootCredentials {
  /** Where the server listened when it wrote the file. */
  baseUrl?: string;
  organizationId: string;
  userId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
  /** The engine's bundle-signing public key, for `dangerouslyOverrideSignerPublicKey`. */
  signerPublicKey?: string;
  /**
   * The engine's token-signing public key (session JWTs, OTP verification tokens), for the override argument
   * of `@turnkey/crypto`'s `verifySessionJwtSignature` and `verifyOtpVerificationToken`.
   */
  tokenSignerPublicKey?: string;
  /** The key OAuth 2.0 client secrets are sealed to, for `encryptOauth2ClientSecret`'s override argument. */
  oauth2ClientSecretPublicKey?: string;
}

/** The files of a data directory. */
export const DATA_FILES = {
  store: "store",
  keyEncryptionKey: "key-encryption-key",
  credentials: "root-api-key.json",
  /** A `--memory` run's credentials, apart from the durable store's, which stay valid for the next normal start. */
  memoryCredentials: "memory-root-api-key.json",
} as const;

/** The credentials file of a run: a `--memory` run has its own. */
export function credentialsPathOf(dataDirectory: string, memory: boolean): string {
  return join(dataDirectory, memory ? DATA_FILES.memoryCredentials : DATA_FILES.credentials);
}

export function readCredentials(path: string): RootCredentials | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")) as RootCredentials;
}

export function writeCredentials(path: string, credentials: RootCredentials): void {
  writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Reuses the organization of an earlier start when the store still has it; else bootstraps one, with the
 * operator's root public key, the earlier start's key pair, or a new one from `newSecretKey`.
 */
export async function bootstrap(
  engine: CustodyEngine,
  previous: RootCredentials | undefined,
  rootPublicKey: string | undefined,
  newSecretKey: () => Uint8Array,
): Promise<RootCredentials> {
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
    const secret = newSecretKey();
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
  return {
    organizationId,
    userId: rootUserIds[0] as string,
    apiPublicKey,
    ...(apiPrivateKey ? { apiPrivateKey } : {}),
  };
}

/** Paths a start created, removed again (newest first) if the start fails. */
export class StartupRollback {
  readonly #created: string[] = [];

  /** Notes `path` as created by this start if it does not exist yet; call before creating it. */
  track(path: string): void {
    if (!existsSync(path)) this.#created.push(path);
  }

  undo(): void {
    for (const path of this.#created.reverse()) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The key-encryption key of a data directory: read from `<data>/key-encryption-key` (64 hex digits), or
 * generated there with mode 0600 on first start. Whoever can read that file can unseal the store's
 * secrets; hosts that hold their key elsewhere embed the engine and pass `keyEncryptionKey` themselves.
 */
function keyEncryptionKeyOf(dataDirectory: string): { key: Uint8Array; path: string; created: boolean } {
  const path = join(dataDirectory, DATA_FILES.keyEncryptionKey);
  if (existsSync(path)) {
    const text = readFileSync(path, "utf8").trim();
    if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${path} must hold 64 hex digits (a 32-byte key)`);
    return { key: hexToBytes(text), path, created: false };
  }
  const key = randomBytes(32);
  writeFileSync(path, `${bytesToHex(key)}\n`, { mode: 0o600, flag: "wx" });
  return { key, path, created: true };
}

/** The store of a run, and whether it holds nothing yet (a first start). */
export interface OpenedStorage {
  store: Store;
  keyEncryptionKey?: Uint8Array;
  description: string;
  empty: boolean;
}

export async function openStorage(
  dataDirectory: string,
  memory: boolean,
  rollback: StartupRollback,
  postgres?: { url: string; schema: string; onAvailabilityChange?: (change: AvailabilityChange) => void },
): Promise<OpenedStorage> {
  if (memory) return { store: new MemoryStore(), description: "memory (nothing is kept after exit)", empty: true };
  rollback.track(join(dataDirectory, DATA_FILES.keyEncryptionKey));
  const kek = keyEncryptionKeyOf(dataDirectory);
  const keyNote = kek.created
    ? `generated a key-encryption key in ${kek.path} (mode 0600)`
    : `key-encryption key from ${kek.path}`;
  if (postgres !== undefined) {
    // Every instance sharing the database must be given the same key-encryption key file.
    const store = await PostgresStore.open(postgres.url, {
      schema: postgres.schema,
      ...(postgres.onAvailabilityChange ? { onAvailabilityChange: postgres.onAvailabilityChange } : {}),
    });
    return {
      store,
      keyEncryptionKey: kek.key,
      description: `PostgreSQL at ${withoutPassword(postgres.url)} (schema ${postgres.schema}); ${keyNote}`,
      empty: await store.isEmpty(),
    };
  }
  rollback.track(join(dataDirectory, DATA_FILES.store));
  const store = await FileStore.open(join(dataDirectory, DATA_FILES.store));
  return {
    store,
    keyEncryptionKey: kek.key,
    description: `file store in ${store.directory}; ${keyNote}`,
    empty: store.recovery.sequence === 0,
  };
}

/** A connection URL fit to print: its password, if any, replaced. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(the given URL)";
  }
}

/** Creates the data directory (mode 0700) if needed, noting it for the rollback. */
export function prepareDataDirectory(dataDirectory: string, rollback: StartupRollback): void {
  rollback.track(dataDirectory);
  mkdirSync(dataDirectory, { recursive: true, mode: 0o700 });
}

/**
 * `--reset`: deletes the state of a data directory (its store, key-encryption key and credentials files).
 * Refuses while a server holds the store: opening it takes its lock, which names the holder.
 */
export async function resetDataDirectory(dataDirectory: string): Promise<void> {
  const storeDirectory = join(dataDirectory, DATA_FILES.store);
  if (existsSync(storeDirectory)) await (await FileStore.open(storeDirectory)).close();
  for (const name of Object.values(DATA_FILES)) rmSync(join(dataDirectory, name), { recursive: true, force: true });
}
