/**
 * The long adversarial run (`npm run adversarial`): starts the dev server on a fresh file store on
 * 127.0.0.1 and attacks it the way a review would, one module per kind of attack. Hostile bodies (huge,
 * endless chunked, deep nesting, `__proto__`, bad UTF-8, BOMs, duplicate keys), tampered and replayed stamps,
 * cross-organization reads and writes, concurrent conflicting activities, the auth proxy as strangers use it
 * (account pre-hijacking, enumeration, the outbox, origins, floods), webhook URLs that reach loopback through
 * IPv6 and one tenant's hanging receivers delaying another's deliveries, NUL characters in ids and names (on the
 * file store and PostgreSQL), a hostile chain node behind `--rpc`, a PostgreSQL outage under load, transaction bombs (a PSBT of 1,500 inputs, the largest one allowed) with the
 * event-loop delay they cause, SIGKILL during
 * load (nothing acknowledged may be lost), and a scan for secrets in the data directory, the server's output and
 * every activity and error body. The PostgreSQL cases run when `CUSTODIAN_PG_URL` names a server.
 *
 * Every load is bounded in count and time. Prints the cases tried, the figures measured and the failures;
 * exits 1 on a failure. `ROUNDS` (default 12) sets the SIGKILL rounds.
 *
 * @module
 */
import { rmSync } from "node:fs";
import { authProxy } from "./auth-proxy.js";
import { chainAnswers } from "./chain-answers.js";
import { conflicts } from "./conflicts.js";
import { credentials, data, report, startServer, stopServer, type Target } from "./harness.js";
import { hostileBodies } from "./hostile-bodies.js";
import { killRounds } from "./kill-rounds.js";
import { nulCharacters } from "./nul-characters.js";
import { postgresOutage } from "./postgres-outage.js";
import { allActivityBodies, knownSecrets, secretScan } from "./secrets.js";
import { stampsAndOrganizations } from "./stamps-and-organizations.js";
import { transactionBombs } from "./transaction-bombs.js";
import { webhooks } from "./webhooks.js";

/** The attacks on one running server, in order. */
const ATTACKS: ((target: Target) => Promise<unknown>)[] = [
  hostileBodies,
  stampsAndOrganizations,
  conflicts,
  authProxy,
  webhooks,
  nulCharacters,
  chainAnswers,
  postgresOutage,
  transactionBombs,
];

async function main(): Promise<void> {
  const started = Date.now();
  let server = await startServer();
  try {
    const creds = credentials();
    const root = { publicKey: creds.apiPublicKey, privateKey: creds.apiPrivateKey };
    const target = (): Target => ({ server, root, organizationId: creds.organizationId });
    for (const attack of ATTACKS) await attack(target());
    const secrets = await knownSecrets(target());
    await stopServer(server);
    const acknowledged = await killRounds(root, creds.organizationId);
    server = await startServer();
    await allActivityBodies(target());
    await stopServer(server);
    secretScan(secrets);
    console.log(`SIGKILL rounds: ${process.env.ROUNDS ?? 12}, acknowledged activities checked: ${acknowledged}`);
  } finally {
    await stopServer(server, "SIGKILL");
  }
  const held = report();
  console.log(`took ${Math.round((Date.now() - started) / 1000)} s`);
  rmSync(data, { recursive: true, force: true });
  process.exitCode = held ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error("adversarial run aborted:", error);
  process.exitCode = 1;
});
