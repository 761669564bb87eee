/**
 * `custodian serve --postgres URL`: the dev server's state in PostgreSQL. The round trip runs on the machine's
 * server, which CI names in `CUSTODIAN_PG_URL` (the storage tests run there too); the refusals need none.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { type DevCredentials, runCli, startDevServer } from "../support/dev-server.js";

const url = process.env.CUSTODIAN_PG_URL;

function dataDirectory(): string {
  return mkdtempSync(join(tmpdir(), "custodian-dev-pg-"));
}

describe("custodian serve --postgres", () => {
  it("refuses --postgres with --memory or --reset, naming the conflict", async () => {
    const memory = await runCli([
      "serve",
      "--port",
      "0",
      "--data",
      dataDirectory(),
      "--memory",
      "--postgres",
      "postgres://x@127.0.0.1:1/none",
    ]);
    expect(memory.code).not.toBe(0);
    expect(memory.stderr).toContain("--postgres and --memory exclude each other");
    const reset = await runCli([
      "serve",
      "--port",
      "0",
      "--data",
      dataDirectory(),
      "--reset",
      "--postgres",
      "postgres://x@127.0.0.1:1/none",
    ]);
    expect(reset.code).not.toBe(0);
    expect(reset.stderr).toContain("--reset does not empty a PostgreSQL database");
  });

  it.runIf(url)(
    "keeps the organization and its wallets in PostgreSQL across restarts",
    async () => {
      const data = dataDirectory();
      // A schema of its own: its tables are sealed under this data directory's key-encryption key alone.
      const schema = `devserver_${randomBytes(6).toString("hex")}`;
      const args = ["--port", "0", "--data", data, "--postgres", url as string, "--postgres-schema", schema];
      const first = startDevServer(args);
      await first.ready;
      expect(first.output()).toMatch(/^storage: PostgreSQL at /m);
      const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as DevCredentials;
      const client = (baseUrl: string) =>
        new Turnkey({
          apiBaseUrl: baseUrl,
          apiPublicKey: credentials.apiPublicKey,
          apiPrivateKey: credentials.apiPrivateKey,
          defaultOrganizationId: credentials.organizationId,
        }).apiClient();
      const { walletId } = await client(credentials.baseUrl).createWallet({
        walletName: `pg-${Date.now()}`,
        accounts: [
          {
            curve: "CURVE_SECP256K1",
            pathFormat: "PATH_FORMAT_BIP32",
            path: "m/44'/60'/0'/0/0",
            addressFormat: "ADDRESS_FORMAT_ETHEREUM",
          },
        ],
      });
      await first.stop();

      const second = startDevServer(args);
      const baseUrl = await second.ready;
      try {
        const { wallet } = await client(baseUrl).getWallet({ walletId });
        expect(wallet.walletId).toBe(walletId);
        // The same organization, found in the database: no second one was bootstrapped.
        expect(second.output()).toContain(`organization ${credentials.organizationId}`);
      } finally {
        await second.stop();
        const pool = new pg.Pool({ connectionString: url });
        await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
        await pool.end();
      }
    },
    60_000,
  );
});
