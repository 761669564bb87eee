/**
 * A PostgreSQL outage under load: a dev server over PostgreSQL reached through a TCP forwarder, which is stopped
 * for 5 s (every connection cut, new ones refused) while clients keep sending, then started again. Every
 * request meanwhile must be answered 503 with gRPC code 14, never 500; the log must say once that the database
 * is unreachable and once that it is back, with no stack; and a body refused during the outage must complete
 * when sent again. Needs `CUSTODIAN_PG_URL` (the shared server is never stopped, only the forwarder).
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startTcpForwarder, throughForwarder } from "../../test/support/tcp-forwarder.js";
import { check, clientFor, credentials, figure, output, raw, stampHeader, startServer, stopServer } from "./harness.js";

const OUTAGE_MS = 5000;
const CLIENTS = 4;

export async function postgresOutage(): Promise<void> {
  const url = process.env.CUSTODIAN_PG_URL;
  if (!url) {
    console.log("PostgreSQL outage: skipped (no CUSTODIAN_PG_URL)");
    return;
  }
  const { hostname, port } = new URL(url);
  const forwarder = await startTcpForwarder({ host: hostname, port: Number(port || 5432) });
  const directory = mkdtempSync(join(tmpdir(), "custodian-adversarial-outage-"));
  const schema = `adversarial_outage_${randomBytes(6).toString("hex")}`;
  const logStart = output.text.length;
  const server = await startServer({
    directory,
    args: ["--postgres", throughForwarder(url, forwarder), "--postgres-schema", schema],
  });
  try {
    const creds = credentials(directory);
    const root = { publicKey: creds.apiPublicKey, privateKey: creds.apiPrivateKey };
    await clientFor(server.baseUrl, root, creds.organizationId).createWallet({ walletName: "before", accounts: [] });
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId: creds.organizationId,
      parameters: { walletName: "during the outage", accounts: [] },
    });
    const whoami = JSON.stringify({ organizationId: creds.organizationId });
    const submit = `${server.baseUrl}/public/v1/submit/create_wallet`;
    const query = `${server.baseUrl}/public/v1/query/whoami`;

    await forwarder.stop();
    const statuses: number[] = [];
    const until = Date.now() + OUTAGE_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        while (Date.now() < until) {
          const answer =
            i % 2 === 0
              ? await raw(submit, body, await stampHeader(root, body))
              : await raw(query, whoami, await stampHeader(root, whoami));
          statuses.push(answer.status);
        }
      }),
    );
    await forwarder.start();
    const again = await raw(submit, body, await stampHeader(root, body));

    const log = output.text.slice(logStart);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    const unreachable = log.match(/PostgreSQL is unreachable/g)?.length ?? 0;
    const back = log.match(/PostgreSQL is reachable again/g)?.length ?? 0;
    const stackLines = log.match(/^\s+at /gm)?.length ?? 0;
    check("every request during a PostgreSQL outage is answered 503", count(503) === statuses.length, `${statuses}`);
    check("the outage is logged once when it begins and once when it ends", unreachable === 1 && back === 1);
    check("the outage logs no stack and no internal error", stackLines === 0 && !log.includes("internal error"));
    check(
      "a body refused during the outage completes when sent again",
      again.status === 200 && again.text.includes("ACTIVITY_STATUS_COMPLETED"),
      `${again.status} ${again.text.slice(0, 200)}`,
    );
    figure(`PostgreSQL outage of ${OUTAGE_MS / 1000} s: requests answered`, statuses.length, "requests");
    figure("PostgreSQL outage: answered 503", count(503), "requests");
    figure("PostgreSQL outage: answered 500", count(500), "requests");
    figure("PostgreSQL outage: log lines about it (unreachable, back)", unreachable + back, "lines");
    figure("PostgreSQL outage: stack lines logged", stackLines, "lines");
  } finally {
    await stopServer(server);
    await forwarder.stop();
    rmSync(directory, { recursive: true, force: true });
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}
