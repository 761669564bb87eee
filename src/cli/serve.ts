/**
 * `custodian serve`: a local Activity API endpoint for development and tests.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { OidcIssuerConfig, OidcIssuers } from "../auth/oidc.js";
import { bootstrap, openStorage } from "../devserver/data-directory.js";
import { CustodyEngine } from "../engine/engine.js";
import { createHttpHandler } from "../http/index.js";

export const SERVE_USAGE = `usage: custodian serve [--host 127.0.0.1] [--port 8080] [--data ./.custodian] [--memory] [--root-public-key HEX]
                       [--rp-id localhost] [--origin http://localhost ...] [--oidc-issuer ISSUER=JWKS_URL ...]
                       [--allow-insecure-webhooks]

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

The server prints its bundle signer's public key and writes it to root-api-key.json as signerPublicKey:
clients pass it as dangerouslyOverrideSignerPublicKey to open export bundles and seal imports.
`;

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

export async function serve(argv: string[]): Promise<void> {
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
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(SERVE_USAGE);
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

  const server = createServer(
    createHttpHandler(engine, { onError: (error) => console.error("custodian: internal error", error) }),
  );
  await new Promise<void>((ready, fail) => {
    server.once("error", fail);
    server.listen(port, values.host, ready);
  });
  // Installed before the banner: whoever reads "listening on" may signal at once.
  const shutdown = () => {
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
