/**
 * `custodian serve`: a local Activity API endpoint for development and tests, with a request log and a
 * read-only dev console.
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { p256 } from "@noble/curves/nist.js";
import type { OidcIssuerConfig, OidcIssuers } from "../auth/oidc.js";
import { createAuthProxyHandler } from "../auth-proxy/proxy.js";
import type { TokenOption } from "../chains/assets.js";
import { createConsoleRoute } from "../devserver/console/index.js";
import { createOutboxRoute, OUTBOX_PATH } from "../devserver/console/outbox-route.js";
import {
  bootstrap,
  credentialsPathOf,
  type OpenedStorage,
  openStorage,
  prepareDataDirectory,
  type RootCredentials,
  readCredentials,
  resetDataDirectory,
  StartupRollback,
  writeCredentials,
} from "../devserver/data-directory.js";
import { createFramesServer } from "../devserver/frames-server.js";
import { createDevServerHandler } from "../devserver/handler.js";
import { createLogger, logDatabaseAvailability, wantsColour } from "../devserver/log.js";
import { CustodyEngine, type CustodyEngineOptions } from "../engine/engine.js";
import { MemoryOutbox } from "../messages/outbox.js";
import { createSeededRandom } from "../model/random.js";
import type { AvailabilityChange } from "../storage/postgres/index.js";
import { isStoreUnavailable } from "../storage/store.js";
import { parseFlags } from "./parse-flags.js";
import { allowedOriginsOf, rateLimitsOf, trustedProxiesOf } from "./proxy-flags.js";

export const SERVE_USAGE = `usage: custodian serve [--host 127.0.0.1] [--port 8080] [--data ./.custodian] [--memory] [--reset]
                       [--seed SEED] [--root-public-key HEX] [--quiet] [--log-format pretty|json]
                       [--rp-id localhost] [--origin http://localhost ...] [--oidc-issuer ISSUER=JWKS_URL ...]
                       [--allow-insecure-webhooks] [--console-remote] [--request-lifetime 1h]
                       [--headers-timeout-ms 10000] [--request-timeout-ms 30000] [--postgres URL]
                       [--postgres-schema custodian] [--rpc eip155:31337=http://127.0.0.1:8545 ...]
                       [--token CAIP2=ADDRESS[,SYMBOL] ...]
                       [--signer-threads N] [--signer-thread-nice N] [--proxy-origin ORIGIN ...]
                       [--proxy-limit NAME=COUNT/PERIOD ...] [--sponsor-key HEX] [--trusted-proxy ADDRESS ...]
                       [--oauth2-token-endpoint PROVIDER=URL ...]
                       [--frames-port PORT]

  --host             address to listen on (default 127.0.0.1)
  --port             port to listen on; 0 picks a free one (default 8080)
  --data             directory for the server's files (default ./.custodian)
  --memory           keep state in memory only (default: a durable file store in <data>/store, its
                     secrets sealed under <data>/key-encryption-key, generated on first start); its
                     credentials go to <data>/memory-root-api-key.json, leaving root-api-key.json alone
  --reset            delete the data directory's state (store, key-encryption key, credentials) first;
                     refused while another server uses it
  --seed             make a first start deterministic: the engine's randomness, the organization and
                     user ids, the root API key and the bundle signer key all follow from SEED (never for
                     real keys: whoever knows the seed knows them). Ignored when the store holds state
  --root-public-key  the operator's compressed P-256 API public key (hex) for the root user;
                     without it a key pair is generated and written to the credentials file (mode 0600)
  --quiet            no line per request (warnings and errors only)
  --log-format       pretty (default; coloured on a terminal, NO_COLOR/FORCE_COLOR respected) or json
                     (one pino record per line)
  --rp-id            the WebAuthn relying-party id passkeys are scoped to (default localhost)
  --origin           an origin passkeys may be used from; repeat for several (default http://localhost)
  --oidc-issuer      trust OIDC tokens of ISSUER (the tokens' iss), verified with the key set at JWKS_URL;
                     repeat for several. Needed for OAuth providers and the oauth sign-in
  --oauth2-token-endpoint  the OAuth 2.0 token endpoint oauth2_authenticate exchanges codes at, for PROVIDER
                     (OAUTH2_PROVIDER_X or OAUTH2_PROVIDER_DISCORD); repeat for both. The provider's id tokens
                     verify through an --oidc-issuer. Without it that provider's codes are refused
  --allow-insecure-webhooks
                     let webhooks go to http://127.0.0.1 / localhost receivers and private addresses
                     (local development; by default only https URLs of public hosts are accepted)
  --console-remote   serve the dev console to clients beyond the loopback interface too (they still need
                     its token)
  --request-lifetime how old a signed submission's timestampMs may be: 90s, 30m, 24h, 2d (default 1h, as
                     Turnkey's FAQ; its offline-signing example speaks of 24h)
  --postgres         keep state in PostgreSQL at URL (default: $CUSTODIAN_PG_URL if set, else the file
                     store); several servers may share one database when they share <data>/key-encryption-key
  --postgres-schema  the schema holding the server's tables (default custodian); servers on different
                     schemas of one database share nothing
  --rpc              let sends reach the chain CAIP2 through the JSON-RPC endpoint at URL (CAIP2=URL, e.g.
                     eip155:31337=http://127.0.0.1:8545); repeat for several. Without it no chain is reachable
  --token            list a token of the chain CAIP2 (one of --rpc) for the balance queries: an ERC-20 contract
                     or an SPL mint, with its symbol (CAIP2=ADDRESS[,SYMBOL]; an SPL mint needs SYMBOL, an
                     ERC-20 contract's is read when left out); repeat for several
  --sponsor-key      a funded secp256k1 private key (0x and 64 hex digits) that pays for sponsored sends
                     (sponsor: true) on every --rpc EVM chain, as the hosted gas station does (default:
                     $CUSTODIAN_SPONSOR_KEY if set; prefer it, a flag shows in the process list). Never
                     printed, logged or stored. Without it sponsored sends are refused GAS_STATION_UNAVAILABLE
  --signer-threads   sign raw payloads on N worker threads (1-64), so concurrent requests use several
                     cores (default: sign on the server's own thread)
  --signer-thread-nice  the signer threads' nice value on Linux, 0-19 (default 10: below the server's thread,
                     which feeds them; 0 when other busy processes share the cores)
  --proxy-origin     a browser origin the auth proxy answers (exact, e.g. https://app.example); repeat for
                     several, or '*' for any. Default: the server's own origin and pages on this machine
                     (http://localhost, 127.0.0.1 and [::1] on any port)
  --proxy-limit      change one of the auth proxy's rate limits: NAME=COUNT/PERIOD (signupsPerAddress=100/1h)
                     or NAME=off, NAME one of requestsPerAddress (default 300/5m), signupsPerAddress (20/1h),
                     otpSendsPerAddress (30/1h), otpSendsPerContact (5/15m); repeat for several, or 'off'
                     for none. A refused request gets 429 with retry-after
  --trusted-proxy    an address or CIDR block of a reverse proxy in front of the server whose X-Forwarded-For
                     IP allowlists believe (read from the right); repeat for several. Default: none, so
                     allowlists see the connection's peer address
  --frames-port      port of the export, import and auth frames (@turnkey/iframe-stamper's iframeUrl), on an
                     origin apart from the app's pages; 0 picks a free one (default: --port + 1, or 0 with
                     --port 0)
  --headers-timeout-ms  close a connection whose request headers take longer (default 10000)
  --request-timeout-ms  close a connection whose whole request (headers and body) takes longer (default 30000)
  -h, --help         this text

The server prints what a client needs (base URL, organization and user ids, the root API public key, the
credentials file holding the private key, the bundle signer's public key: clients pass it as
dangerouslyOverrideSignerPublicKey to open export bundles and seal imports, and the token signer's public key,
which verifySessionJwtSignature and verifyOtpVerificationToken take) and writes the same to the credentials
file. It prints the dev console's address with its token, the export, import and auth frames' addresses, and one
log line per request.

The server also serves the Auth Proxy API at /v1/* (a kit's authProxyUrl is the server's URL; new users
become sub-organizations of the dev organization), prints each one-time code it sends, and lists the
messages at GET /dev/outbox under the console's rules (loopback, and the console token or a root stamp):
no mail or SMS leaves the machine.

The server favours a small memory footprint over peak speed: it sets V8's --optimize-for-size (run it as
node --no-optimize-for-size .../cli.js serve to keep V8's default).
`;

const DURATION_UNITS_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The integer a flag's text names, or undefined (`Number` alone reads "" and "  " as 0). */
function integerOf(text: string): number | undefined {
  const value = Number(text);
  return text.trim() !== "" && Number.isInteger(value) ? value : undefined;
}

function positiveInteger(text: string, flag: string): number {
  const value = integerOf(text);
  if (value === undefined || value < 1) throw new Error(`${flag} must be a positive integer, got ${text}`);
  return value;
}

/** Any integer: the option it feeds checks its own range and names itself. */
function wholeNumber(text: string, flag: string): number {
  const value = integerOf(text);
  if (value === undefined) throw new Error(`${flag} must be a whole number, got ${text}`);
  return value;
}

/** `--request-lifetime 24h` as milliseconds. */
function durationMs(value: string): number {
  const match = /^([1-9][0-9]{0,8})([smhd])$/.exec(value);
  if (!match) throw new Error(`--request-lifetime must be a whole number with a unit (s, m, h, d), got ${value}`);
  return Number(match[1]) * (DURATION_UNITS_MS[match[2] as string] as number);
}

/** The clock of a seeded first start while it bootstraps, so the organization's ids are the same every time. */
const SEEDED_START_MS = Date.UTC(2026, 0, 1);
/** The seed length noble's `randomSecretKey` reduces to a P-256 scalar without bias. */
const P256_SEED_BYTES = 48;

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

/** `--oauth2-token-endpoint PROVIDER=URL` values as the engine's `oauth2Providers` option (it checks the names). */
function oauth2ProvidersOf(values: readonly string[]): Record<string, { tokenEndpoint: string }> {
  const providers: Record<string, { tokenEndpoint: string }> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    const tokenEndpoint = value.slice(at + 1);
    if (at <= 0 || !URL.canParse(tokenEndpoint)) {
      throw new Error(`--oauth2-token-endpoint must be PROVIDER=URL, got ${value}`);
    }
    providers[value.slice(0, at)] = { tokenEndpoint };
  }
  return providers;
}

/** `--rpc CAIP2=URL` values as the engine's `chains` option (the registry checks both halves). */
export function chainsOf(values: readonly string[]): Record<string, string> {
  const chains: Record<string, string> = {};
  for (const value of values) {
    // Split at the first "=" after the CAIP-2 id's ":" (ids have no "=", a URL's query string may).
    const at = value.indexOf("=");
    if (at <= 0) throw new Error(`--rpc must be CAIP2=URL (e.g. eip155:31337=http://127.0.0.1:8545), got ${value}`);
    const caip2 = value.slice(0, at);
    if (chains[caip2] !== undefined) throw new Error(`--rpc names ${caip2} twice`);
    chains[caip2] = value.slice(at + 1);
  }
  return chains;
}

/** `--token CAIP2=ADDRESS[,SYMBOL]` values as the engine's `tokens` option (the engine checks each token). */
export function tokensOf(values: readonly string[]): Record<string, TokenOption[]> {
  const tokens: Record<string, TokenOption[]> = {};
  for (const value of values) {
    const match = /^([^=]+)=([^,]+)(?:,(.+))?$/.exec(value);
    if (!match)
      throw new Error(`--token must be CAIP2=ADDRESS[,SYMBOL] (e.g. eip155:31337=0x5FbD…,USDC), got ${value}`);
    const [, caip2, address, symbol] = match as unknown as [string, string, string, string | undefined];
    const listed = tokens[caip2] ?? [];
    listed.push(symbol === undefined ? address : { address, symbol });
    tokens[caip2] = listed;
  }
  return tokens;
}

async function listen(server: Server, port: number, host: string, flag = "--port"): Promise<void> {
  await new Promise<void>((ready, fail) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") {
        fail(
          new Error(
            `port ${port} on ${host} is in use (another custodian serve?); stop that process or pick another port with ${flag} (${flag} 0 picks a free one)`,
          ),
        );
      } else fail(error);
    });
    server.listen(port, host, ready);
  });
}

/** What a successful start holds. */
interface Started {
  engine: CustodyEngine;
  storage: OpenedStorage;
  credentials: RootCredentials;
  /** Whether --seed took effect (a first start). */
  seeded: boolean;
}

/**
 * Opens the data directory and the engine, bootstraps or finds the organization, and writes the credentials
 * file. On failure it closes what it opened; the caller's rollback removes what it created.
 */
async function startEngine(
  settings: {
    dataDirectory: string;
    memory: boolean;
    postgres: { url: string; schema: string; onAvailabilityChange: (change: AvailabilityChange) => void } | undefined;
    seed: string | undefined;
    rootPublicKey: string | undefined;
    credentialsPath: string;
    baseUrl: string;
    engine: CustodyEngineOptions;
  },
  rollback: StartupRollback,
): Promise<Started> {
  prepareDataDirectory(settings.dataDirectory, rollback);
  const storage = await openStorage(settings.dataDirectory, settings.memory, rollback, settings.postgres);
  const seed = storage.empty ? settings.seed : undefined;
  let bootstrapping = seed !== undefined;
  const engine = new CustodyEngine({
    ...settings.engine,
    store: storage.store,
    keyEncryptionKey: storage.keyEncryptionKey,
    ...(seed === undefined ? {} : { random: createSeededRandom(seed) }),
    clock: () => (bootstrapping ? SEEDED_START_MS : Date.now()),
  });
  try {
    await engine.open();
    const newSecretKey =
      seed === undefined
        ? () => p256.utils.randomSecretKey()
        : () => p256.utils.randomSecretKey(createSeededRandom(`${seed}:root-api-key`)(P256_SEED_BYTES));
    rollback.track(settings.credentialsPath);
    // A seeded start owes nothing to an earlier one: its key follows from the seed.
    const previous = seed === undefined ? readCredentials(settings.credentialsPath) : undefined;
    const root = await bootstrap(engine, previous, settings.rootPublicKey, newSecretKey);
    bootstrapping = false;
    const credentials = {
      baseUrl: settings.baseUrl,
      ...root,
      signerPublicKey: await engine.signerPublicKey(),
      tokenSignerPublicKey: await engine.tokenSignerPublicKey(),
      oauth2ClientSecretPublicKey: await engine.oauth2ClientSecretPublicKey(),
    };
    writeCredentials(settings.credentialsPath, credentials);
    return { engine, storage, credentials, seeded: seed !== undefined };
  } catch (error) {
    await engine.close();
    await storage.store.close();
    throw error;
  }
}

/**
 * Whether the dev server asks V8 to favour a small heap: yes, unless node was run with `--no-optimize-for-size` to
 * keep V8's default (node refuses that flag in NODE_OPTIONS, so only its command line can say it).
 */
export function favoursSmallHeap(execArgv: readonly string[]): boolean {
  return !execArgv.some((flag) => /^--no[-_]optimize[-_]for[-_]size$/.test(flag));
}

/**
 * The dev server favours a small resident size over peak speed: with V8's `--optimize-for-size` each full
 * collection sets the next heap limit close to the live data (instead of up to several times it) and the young
 * generation stays small, where a store of hundreds of thousands of records otherwise leaves the process holding
 * about twice its live heap, more the faster its load comes. V8 reads the flag as it goes, so setting it once the
 * process runs takes effect from the next collection; it is the serve command's choice, never the library's (an
 * embedding host keeps its own V8 settings).
 */
function favourSmallHeap(): void {
  if (favoursSmallHeap(process.execArgv)) setFlagsFromString("--optimize-for-size");
}

export async function serve(argv: string[]): Promise<void> {
  const { values } = parseFlags(
    {
      args: argv,
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "8080" },
        data: { type: "string", default: "./.custodian" },
        memory: { type: "boolean", default: false },
        reset: { type: "boolean", default: false },
        seed: { type: "string" },
        "root-public-key": { type: "string" },
        quiet: { type: "boolean", default: false },
        "log-format": { type: "string", default: "pretty" },
        "rp-id": { type: "string", default: "localhost" },
        origin: { type: "string", multiple: true, default: ["http://localhost"] },
        "oidc-issuer": { type: "string", multiple: true, default: [] },
        "oauth2-token-endpoint": { type: "string", multiple: true, default: [] },
        "allow-insecure-webhooks": { type: "boolean", default: false },
        "console-remote": { type: "boolean", default: false },
        "request-lifetime": { type: "string", default: "1h" },
        postgres: { type: "string" },
        "postgres-schema": { type: "string", default: "custodian" },
        "headers-timeout-ms": { type: "string", default: "10000" },
        "request-timeout-ms": { type: "string", default: "30000" },
        rpc: { type: "string", multiple: true, default: [] },
        token: { type: "string", multiple: true, default: [] },
        "signer-threads": { type: "string" },
        "signer-thread-nice": { type: "string" },
        "proxy-origin": { type: "string", multiple: true, default: [] },
        "proxy-limit": { type: "string", multiple: true, default: [] },
        "sponsor-key": { type: "string" },
        "trusted-proxy": { type: "string", multiple: true, default: [] },
        "frames-port": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    },
    "serve",
  );
  if (values.help) {
    process.stdout.write(SERVE_USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);
  // The frames need an origin apart from the API's and the app's: the next port unless told otherwise.
  const framesPort =
    values["frames-port"] === undefined ? (port === 0 ? 0 : port + 1) : integerOf(values["frames-port"]);
  if (values["frames-port"] === undefined && framesPort === 65536)
    throw new Error("--port 65535 leaves no next port for the frames: name one with --frames-port");
  if (framesPort === undefined || framesPort < 0 || framesPort > 65535)
    throw new Error(`--frames-port must be 0-65535, got ${values["frames-port"]}`);
  const logFormat = values["log-format"];
  if (logFormat !== "pretty" && logFormat !== "json")
    throw new Error(`--log-format must be pretty or json, got ${logFormat}`);
  if (values.seed === "") throw new Error("--seed must not be empty");
  const maxRequestAgeMs = durationMs(values["request-lifetime"]);
  const headersTimeout = positiveInteger(values["headers-timeout-ms"], "--headers-timeout-ms");
  const requestTimeout = positiveInteger(values["request-timeout-ms"], "--request-timeout-ms");
  const oidcIssuers = oidcIssuersOf(values["oidc-issuer"]);
  const oauth2Providers = oauth2ProvidersOf(values["oauth2-token-endpoint"]);
  const chains = chainsOf(values.rpc);
  const tokens = tokensOf(values.token);
  const signerThreads =
    values["signer-threads"] === undefined ? undefined : positiveInteger(values["signer-threads"], "--signer-threads");
  // The engine checks the range (0 to 19) and names its option.
  const signerThreadNice =
    values["signer-thread-nice"] === undefined
      ? undefined
      : wholeNumber(values["signer-thread-nice"], "--signer-thread-nice");
  // The engine checks the key and names its option without quoting it.
  const sponsorPrivateKey = values["sponsor-key"] ?? process.env.CUSTODIAN_SPONSOR_KEY;
  const allowedOrigins = allowedOriginsOf(values["proxy-origin"]);
  const rateLimits = rateLimitsOf(values["proxy-limit"]);
  const trustedProxies = trustedProxiesOf(values["trusted-proxy"]);
  const logger = createLogger({ format: logFormat, quiet: values.quiet, colour: wantsColour(process.stdout) });
  // Development only: each one-time code is printed, so a developer can log in without a mail server.
  const outbox = new MemoryOutbox({
    onMessage: (message) =>
      logger.warn(`outbox: ${message.channel} to ${message.to}${message.otpCode ? ` code ${message.otpCode}` : ""}`),
  });
  const dataDirectory = resolve(values.data);
  // The environment's database is a default: an explicit --memory run still keeps nothing.
  const postgresUrl = values.postgres ?? (values.memory ? undefined : process.env.CUSTODIAN_PG_URL || undefined);
  if (postgresUrl !== undefined && values.memory) throw new Error("--postgres and --memory exclude each other");
  if (postgresUrl !== undefined && values.reset) {
    throw new Error("--reset does not empty a PostgreSQL database: drop its custodian schema yourself, then start");
  }
  if (values.reset) await resetDataDirectory(dataDirectory);

  // Bind the port before touching the data directory: a port in use leaves nothing behind.
  let handle = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
    res.end(JSON.stringify({ code: 14, message: "the dev server is starting", details: [] }));
  };
  // Slow clients (a byte a second on many sockets) are cut off by these time-outs, checked every second,
  // instead of holding sockets for Node's default five minutes.
  const server = createServer(
    {
      headersTimeout: Math.min(headersTimeout, requestTimeout),
      requestTimeout,
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
      keepAliveTimeout: 5000,
    },
    (req, res) => handle(req, res),
  );
  await listen(server, port, values.host);
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const baseUrl = `http://${host}:${address.port}`;
  const frames = createFramesServer();
  try {
    await listen(frames.server, framesPort, values.host, "--frames-port");
  } catch (error) {
    await new Promise((closed) => server.close(closed));
    throw error;
  }
  const framesUrl = `http://${host}:${(frames.server.address() as AddressInfo).port}`;

  const rollback = new StartupRollback();
  const credentialsPath = credentialsPathOf(dataDirectory, values.memory);
  let started: Started;
  try {
    started = await startEngine(
      {
        dataDirectory,
        memory: values.memory,
        postgres:
          postgresUrl === undefined
            ? undefined
            : {
                url: postgresUrl,
                schema: values["postgres-schema"],
                onAvailabilityChange: logDatabaseAvailability(logger),
              },
        seed: values.seed,
        rootPublicKey: values["root-public-key"],
        credentialsPath,
        baseUrl,
        engine: {
          webauthn: { rpId: values["rp-id"], origins: values.origin },
          oidcIssuers,
          oauth2Providers: oauth2Providers as CustodyEngineOptions["oauth2Providers"],
          allowInsecureWebhooks: values["allow-insecure-webhooks"],
          maxRequestAgeMs,
          messageSender: outbox,
          // A database outage is logged once by the store (logDatabaseAvailability), not at every retry.
          onWebhookError: (error) => {
            if (!isStoreUnavailable(error)) logger.error({ err: error }, "webhook dispatcher error");
          },
          chains,
          tokens,
          ...(sponsorPrivateKey === undefined ? {} : { gasStation: { sponsorPrivateKey } }),
          ...(signerThreads === undefined ? {} : { signerThreads }),
          ...(signerThreadNice === undefined ? {} : { signerThreadNice }),
          onChainError: (error) => {
            if (!isStoreUnavailable(error)) logger.warn({ err: error }, "send-status tracker: chain error");
          },
        },
      },
      rollback,
    );
  } catch (error) {
    rollback.undo();
    await new Promise((closed) => server.close(closed));
    await new Promise((closed) => frames.server.close(closed));
    throw error;
  }
  const { engine, storage, credentials, seeded } = started;
  // Once started: the start's own work (compiling the modules it loads) runs with V8's defaults.
  favourSmallHeap();
  frames.serve({ signerPublicKey: await engine.signerPublicKey() });

  const consoleToken = randomBytes(24).toString("base64url");
  const rootView = engine.as({ userId: credentials.userId });
  const onError = (error: unknown) => logger.error({ err: error }, "internal error");
  let clientDisconnects = 0;
  const authProxy = createAuthProxyHandler(engine, {
    organizationId: credentials.organizationId,
    userId: credentials.userId,
    allowedOrigins,
    rateLimits,
    onError,
  });
  const access = {
    engine,
    organizationId: credentials.organizationId,
    rootUserId: credentials.userId,
    token: consoleToken,
    allowRemote: values["console-remote"],
  };
  handle = createDevServerHandler({
    engine,
    logger,
    // A client that leaves before its answer is counted, not logged as an error.
    adapter: {
      onError,
      trustedProxies,
      onClientDisconnect: () => {
        clientDisconnects++;
      },
    },
    routes: [
      createOutboxRoute(access, () => engine.outbox()),
      async (req, res) => {
        let served = true;
        authProxy(req, res, () => {
          served = false;
        });
        return served;
      },
      createConsoleRoute({
        ...access,
        root: rootView,
        outbox: async (organizationId) =>
          outbox
            .messages()
            .filter((message) => message.organizationId === organizationId)
            .map((message): Record<string, unknown> => ({ ...message })),
      }),
    ],
  });
  const store = storage.store;
  // Installed before the banner: whoever reads "listening on" may signal at once.
  const shutdown = () => {
    if (clientDisconnects > 0) logger.warn(`${clientDisconnects} requests ended by their client before an answer`);
    frames.server.close();
    frames.server.closeAllConnections();
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

  const lines = [
    `listening on ${baseUrl}`,
    `organization ${credentials.organizationId}`,
    `root user ${credentials.userId}`,
    `root API public key ${credentials.apiPublicKey}`,
    `root credentials in ${credentialsPath}${credentials.apiPrivateKey ? " (apiPrivateKey, mode 0600)" : ""}`,
    `bundle signer public key ${credentials.signerPublicKey}`,
    // Export and import bundles are signed by this key, not Turnkey's enclave key: @turnkey/crypto's bundle
    // functions need it passed, verbatim, next to their other options.
    `  add to decryptExportBundle / encrypt*ToBundle: dangerouslyOverrideSignerPublicKey: "${credentials.signerPublicKey}"`,
    // Session JWTs and OTP verification tokens are signed by this key, not Turnkey's notarizer or TLS fetcher.
    `token signer public key ${credentials.tokenSignerPublicKey}`,
    `  pass to verifySessionJwtSignature / verifyOtpVerificationToken as their second argument`,
    `signed requests are valid for ${values["request-lifetime"]} after their timestampMs`,
    `auth proxy on ${baseUrl} (authProxyUrl); outbox at ${OUTBOX_PATH} (with the console token)`,
    `console ${baseUrl}/?token=${consoleToken}`,
    // On their own origin (another port), as export.turnkey.com and the others are: iframe-stamper's iframeUrl.
    `export frame ${framesUrl}/export`,
    `import frame ${framesUrl}/import`,
    `auth frame ${framesUrl}/auth`,
  ];
  if (values["oauth2-token-endpoint"].length > 0) {
    lines.push(
      `OAuth 2.0 client secret key ${credentials.oauth2ClientSecretPublicKey}`,
      "  pass to encryptOauth2ClientSecret as its second argument",
    );
  }
  if (seeded) lines.push(`seeded start: ids and keys follow from --seed ${values.seed}`);
  else if (values.seed !== undefined) lines.push("--seed ignored: the store already holds state (--reset starts over)");
  lines.push(`storage: ${storage.description}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}
