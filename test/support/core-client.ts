/**
 * `@turnkey/core`'s `TurnkeyClient` in Node. Its `init()` only knows browsers (IndexedDB, localStorage) and
 * React Native (keychain), so this gives it what those provide: an in-memory session storage (parsing
 * sessions with core's own `parseSession`, as its web storage does) and an in-memory key store that stamps
 * with core's `ApiKeyStamper`. Everything else (the HTTP client, the attested stamper, the flows) is core's.
 */
import { ApiKeyStamper, type Session, signWithApiKey, TurnkeyClient } from "@turnkey/core";
import { AttestedStamper } from "@turnkey/core/dist/__stampers__/attested/base.js";
import { parseSession } from "@turnkey/core/dist/utils.js";
import { generateP256KeyPair } from "@turnkey/crypto";

const DEFAULT_SESSION_KEY = "@turnkey/session/v3";

/** Core's `StorageBase`, in memory. */
class MemorySessionStorage {
  readonly #values = new Map<string, unknown>();
  #active: string | undefined;

  getStorageValue = async (key: string) => this.#values.get(key);
  setStorageValue = async (key: string, value: unknown) => {
    this.#values.set(key, value);
  };
  setActiveSessionKey = async (key: string) => {
    this.#active = key;
  };
  removeStorageValue = async (key: string) => {
    this.#values.delete(key);
  };
  storeSession = async (token: string, key = DEFAULT_SESSION_KEY) => {
    this.#values.set(key, parseSession(token));
    this.#active = key;
  };
  getSession = async (key = DEFAULT_SESSION_KEY) => this.#values.get(key) as Session | undefined;
  getActiveSessionKey = async () => this.#active;
  getActiveSession = async () => (this.#active === undefined ? undefined : this.getSession(this.#active));
  listSessionKeys = async () => [...this.#values.keys()];
  clearSession = async (key: string) => {
    this.#values.delete(key);
    if (this.#active === key) this.#active = undefined;
  };
  clearAllSessions = async () => {
    this.#values.clear();
    this.#active = undefined;
  };
}

/** The surface of core's `CrossPlatformApiKeyStamper`, with keys in memory. */
class MemoryApiKeyStamper {
  readonly keys = new Map<string, string>();
  #temporary: string | undefined;

  constructor(private readonly storage: MemorySessionStorage) {}

  init = async () => {};
  listKeyPairs = async () => [...this.keys.keys()];
  createKeyPair = async () => {
    const pair = generateP256KeyPair();
    this.keys.set(pair.publicKey, pair.privateKey);
    return pair.publicKey;
  };
  deleteKeyPair = async (publicKey: string) => {
    this.keys.delete(publicKey);
  };
  setTemporaryPublicKey = (publicKey: string | undefined) => {
    this.#temporary = publicKey;
  };
  getTemporaryPublicKey = () => this.#temporary;
  clearTemporaryPublicKey = () => {
    this.#temporary = undefined;
  };
  getPublicKey = async () => {
    const publicKey = this.#temporary ?? (await this.storage.getActiveSession())?.publicKey;
    if (!publicKey) throw new Error("no active session");
    return publicKey;
  };
  #privateKey(publicKey: string): string {
    const privateKey = this.keys.get(publicKey);
    if (!privateKey) throw new Error(`no key pair for ${publicKey}`);
    return privateKey;
  }
  stamp = async (payload: string) => {
    const apiPublicKey = await this.getPublicKey();
    return new ApiKeyStamper({ apiPublicKey, apiPrivateKey: this.#privateKey(apiPublicKey) }).stamp(payload);
  };
  sign = async (payload: string, _format?: unknown, publicKey?: string) => {
    const key = publicKey ?? (await this.getPublicKey());
    return signWithApiKey({ content: payload, publicKey: key, privateKey: this.#privateKey(key) });
  };
}

export interface CoreClientConfig {
  apiBaseUrl: string;
  authProxyUrl: string;
  authProxyConfigId: string;
  organizationId: string;
}

/** A ready `@turnkey/core` client and its key store. */
export function coreClient(config: CoreClientConfig) {
  const client = new TurnkeyClient(config);
  const storage = new MemorySessionStorage();
  const keys = new MemoryApiKeyStamper(storage);
  // What init() would have set up on a web page.
  Object.assign(client, {
    storageManager: storage,
    apiKeyStamper: keys,
    attestedStamper: new AttestedStamper(keys as never),
  });
  client.httpClient = client.createHttpClient();
  return { client, keys, storage };
}
