/**
 * `custodian serve --postgres` while the database cannot be reached: PostgreSQL behind a TCP forwarder the test
 * stops and starts again. During the outage every request is answered 503 with gRPC code 14 (`UNAVAILABLE`),
 * which the official clients surface as a `TurnkeyRequestError` with `code` 14; the log says once that the
 * database is unreachable and once that it is back, with no stack and no "internal error"; and a body refused
 * during the outage succeeds when sent again after it (nothing was recorded as its failure). Needs the server
 * (`CUSTODIAN_PG_URL`).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { Turnkey } from "@turnkey/sdk-server";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { type DevCredentials, startDevServer } from "../support/dev-server.js";
import { serverUrl } from "../support/postgres.js";
import { startTcpForwarder, throughForwarder } from "../support/tcp-forwarder.js";

const OUTAGE_MS = 2000;

async function stampedPost(baseUrl: string, path: string, body: string, credentials: DevCredentials) {
  const stamper = new ApiKeyStamper({
    apiPublicKey: credentials.apiPublicKey,
    apiPrivateKey: credentials.apiPrivateKey,
  });
  const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
  const response = await fetch(`${baseUrl}/public/v1/${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", [stampHeaderName]: stampHeaderValue },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.runIf(serverUrl)("custodian serve --postgres while the database is down", () => {
  it("answers 503 (code 14) throughout, logs the outage once each way, and serves again after it", async () => {
    const { hostname, port } = new URL(serverUrl as string);
    const forwarder = await startTcpForwarder({ host: hostname, port: Number(port || 5432) });
    const data = mkdtempSync(join(tmpdir(), "custodian-dev-pg-outage-"));
    const schema = `devserver_outage_${randomBytes(6).toString("hex")}`;
    const server = startDevServer([
      "--port",
      "0",
      "--data",
      data,
      "--postgres",
      throughForwarder(serverUrl as string, forwarder),
      "--postgres-schema",
      schema,
    ]);
    try {
      const baseUrl = await server.ready;
      const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as DevCredentials;
      const client = new Turnkey({
        apiBaseUrl: baseUrl,
        apiPublicKey: credentials.apiPublicKey,
        apiPrivateKey: credentials.apiPrivateKey,
        defaultOrganizationId: credentials.organizationId,
      }).apiClient();
      await client.createWallet({ walletName: "before", accounts: [] });
      const body = JSON.stringify({
        type: "ACTIVITY_TYPE_CREATE_WALLET",
        timestampMs: String(Date.now()),
        organizationId: credentials.organizationId,
        parameters: { walletName: "during", accounts: [] },
      });

      await forwarder.stop();
      const statuses: number[] = [];
      const codes: unknown[] = [];
      const until = Date.now() + OUTAGE_MS;
      while (Date.now() < until) {
        const answers = await Promise.all([
          stampedPost(baseUrl, "submit/create_wallet", body, credentials),
          stampedPost(baseUrl, "query/whoami", JSON.stringify({ organizationId: credentials.organizationId }), {
            ...credentials,
          }),
        ]);
        for (const answer of answers) {
          statuses.push(answer.status);
          codes.push(answer.body.code);
        }
      }
      const clientError = await client.getWhoami({}).catch((error: unknown) => error);
      await forwarder.start();

      expect(statuses.length).toBeGreaterThan(2);
      expect(new Set(statuses)).toEqual(new Set([503]));
      expect(new Set(codes)).toEqual(new Set([14]));
      expect(clientError).toMatchObject({ name: "TurnkeyRequestError", code: 14 });

      const again = await stampedPost(baseUrl, "submit/create_wallet", body, credentials);
      expect(again.status).toBe(200);
      expect((again.body.activity as { status: string }).status).toBe("ACTIVITY_STATUS_COMPLETED");

      const output = server.output();
      expect(output.match(/PostgreSQL is unreachable/g)).toHaveLength(1);
      expect(output.match(/PostgreSQL is reachable again/g)).toHaveLength(1);
      expect(output).not.toContain("internal error");
      expect(output).not.toMatch(/^\s+at /m);
    } finally {
      await server.stop();
      await forwarder.stop();
      const pool = new pg.Pool({ connectionString: serverUrl, max: 1 });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  }, 60_000);
});
