#!/usr/bin/env node
/**
 * `custodian serve`: a local Activity API endpoint for development and tests.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes, randomBytes } from "@noble/hashes/utils.js";
import type { OidcIssuerConfig, OidcIssuers } from "./auth/oidc.js";
import { CustodyEngine } from "./engine/engine.js";
import { CustodyError } from "./errors.js";
import { createHttpHandler } from "./http/index.js";
import { FileStore } from "./storage/file/index.js";
import { MemoryStore } from "./storage/memory.js";
import type { Store } from "./storage/store.js";

const USAGE = `usage: custodian serve [--host 127.0.0.1] [--port 8080] [--data ./.custodian] [--memory] [--root-public-key HEX]
                       [--rp-id localhost] [--origin http://localhost ...] [--oidc-issuer ISSUER=JWKS_URL ...]
                       [--allow-insecure-webhooks] [--headers-timeout-ms 10000] [--request-timeout-ms 30000]

  --host             address to listen on (default 127.0.0.1)
  --port             port to listen on; 0 picks a free one (default 8080)
  --data             directory for the server's files (default ./.custodian)
  --memory           keep state in memory only (default: a durable file store in <data>/store, its
                     secrets sealed under <data>/key-encryption-key, generated on first start)
  --root-public-key  the operator's compressed P-256 API public key (hex) for the root user;
                     without it a key pair is generated and written to <data>/root-api-key.json (mode 0600)
  --rp-id            the WebAuthn relying-party id passkeys are scoped to (default localhost)
  --origin           an origin passkeys may be used from; repeat for several (default http://localhost)
  --oidc-issuer      trust OIDC tokens of ISSUER (the tokens' iss), verified with the key set at JWKS_URL;
                     repeat for several. Needed for OAuth providers and the oauth sign-in
  --allow-insecure-webhooks
                     let webhooks go to http://127.0.0.1 / localhost receivers and private addresses
                     (local development; by default only https URLs of public hosts are accepted)
  --headers-timeout-ms  close a connection whose request headers take longer (default 10000)
  --request-timeout-ms  close a connection whose whole request (headers and body) takes longer (default 30000)

The server prints its bundle signer's public key and writes it to root-api-key.json as signerPublicKey:
clients pass it as dangerouslyOverrideSignerPublicKey to open export bundles and seal imports.
`;

/** What `<data>/root-api-key.json` holds. `apiPrivateKey` only when the server generated the key. */
interface RootCredentials {
  organizationId: string;
  userId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
  /** The engine's bundle-signing public key, for `dangerouslyOverrideSignerPublicKey`. */
  signerPublicKey?: string;
}

/** `--oidc-issuer ISSUER=JWKS_URL` values as the engine's `oidcIssuers` option. */
function oidcIssuersOf(values: readonly string[]): OidcIssuers {
  const issuers: Record<string, OidcIssuerConfig> = {};
  for (const value of values) {
    // Split at the first "=": issuers have none, while a JWKS URL's query string may.
    const at = value.indexOf("=");
    const issuer = value.slice(0, at);
    const jwksUri = value.slice(at + 1);
    if (at <= 0 || !URL.canParse(jwksUri)) throw new Error(`--oidc-issuer must be ISSUER=JWKS_URL, got ${value}`);
    issuers[issuer] = { jwksUri };
  }
  return issuers;
}

function readCredentials(path: string): RootCredentials | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")) as RootCredentials;
}

/** Reuses the organization of an earlier start when the store still has it; else bootstraps one. */
async function bootstrap(
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

async function openStorage(
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

function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} must be a positive integer, got ${text}`);
  return value;
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8080" },
      data: { type: "string", default: "./.custodian" },
      memory: { type: "boolean", default: false },
      "root-public-key": { type: "string" },
      "rp-id": { type: "string", default: "localhost" },
      origin: { type: "string", multiple: true, default: ["http://localhost"] },
      "oidc-issuer": { type: "string", multiple: true, default: [] },
      "allow-insecure-webhooks": { type: "boolean", default: false },
      "headers-timeout-ms": { type: "string", default: "10000" },
      "request-timeout-ms": { type: "string", default: "30000" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);
  const dataDirectory = resolve(values.data);
  mkdirSync(dataDirectory, { recursive: true, mode: 0o700 });
  const { store, keyEncryptionKey, description } = await openStorage(dataDirectory, values.memory);
  const engine = new CustodyEngine({
    store,
    keyEncryptionKey,
    webauthn: { rpId: values["rp-id"], origins: values.origin },
    oidcIssuers: oidcIssuersOf(values["oidc-issuer"]),
    allowInsecureWebhooks: values["allow-insecure-webhooks"],
    onWebhookError: (error) => console.error("custodian: webhook dispatcher error", error),
  });
  const credentialsPath = join(dataDirectory, "root-api-key.json");
  await engine.open();
  const credentials = await bootstrap(engine, credentialsPath, values["root-public-key"]);
  const signerPublicKey = await engine.signerPublicKey();
  if (credentials.signerPublicKey !== signerPublicKey) {
    writeFileSync(credentialsPath, `${JSON.stringify({ ...credentials, signerPublicKey }, null, 2)}\n`, {
      mode: 0o600,
    });
  }

  const headersTimeout = positiveInteger(values["headers-timeout-ms"], "--headers-timeout-ms");
  const requestTimeout = positiveInteger(values["request-timeout-ms"], "--request-timeout-ms");
  let clientDisconnects = 0;
  // Slow clients (a byte a second on many sockets) are cut off by these time-outs, checked every second,
  // instead of holding sockets for Node's default five minutes.
  const server = createServer(
    {
      headersTimeout: Math.min(headersTimeout, requestTimeout),
      requestTimeout,
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
      keepAliveTimeout: 5000,
    },
    createHttpHandler(engine, {
      onError: (error) => console.error("custodian: internal error", error),
      onClientDisconnect: () => {
        clientDisconnects++;
      },
    }),
  );
  await new Promise<void>((ready, fail) => {
    server.once("error", fail);
    server.listen(port, values.host, ready);
  });
  // Installed before the banner: whoever reads "listening on" may signal at once.
  const shutdown = () => {
    if (clientDisconnects > 0) console.log(`${clientDisconnects} requests ended by their client before an answer`);
    server.close(() => {
      // The dispatcher lets go of the store first; pending deliveries resume at the next start.
      void engine
        .close()
        .then(() => store.close())
        .then(() => process.exit(0));
    });
    server.closeAllConnections();
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);

  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  console.log(`listening on http://${host}:${address.port}`);
  console.log(`organization ${credentials.organizationId}`);
  console.log(`root credentials in ${credentialsPath}`);
  console.log(`bundle signer public key ${signerPublicKey} (clients: dangerouslyOverrideSignerPublicKey)`);
  console.log(`storage: ${description}`);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "serve") return serve(rest);
  process.stdout.write(USAGE);
  if (command !== undefined && command !== "help" && command !== "--help") process.exitCode = 2;
}

main().catch((error: unknown) => {
  console.error(
    `custodian: ${error instanceof CustodyError || error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
