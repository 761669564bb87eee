/**
 * Every example runs to completion, so the documentation can't rot. Examples import the package by name
 * (`custodian`, `custodian/testing`, ...), resolved to the sources by tsconfig `paths` (tsx) and by the
 * vitest example's own aliases.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startDevServer } from "./support/dev-server.js";

const run = promisify(execFile);
const examples = new URL("../examples/", import.meta.url);
const scripts = readdirSync(examples).filter((name) => name.endsWith(".ts"));
const tsx = (file: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env) =>
  run(process.execPath, ["--import", "tsx", file, ...args], { encoding: "utf8", timeout: 60_000, env });

describe("examples", () => {
  it("has the quickstart and one folder per use", () => {
    expect(scripts).toContain("quickstart.ts");
    for (const folder of ["vitest-embedding", "official-client", "express-host", "hono-host", "policy-playground"]) {
      expect(readdirSync(examples)).toContain(folder);
    }
  });

  for (const name of scripts) {
    it(`runs examples/${name}`, async () => {
      const { stdout } = await tsx(`examples/${name}`);
      expect(stdout.length).toBeGreaterThan(0);
    });
  }

  it("runs the vitest-embedding suite", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "node_modules/vitest/vitest.mjs",
        "run",
        "--reporter=json",
        "--config",
        "examples/vitest-embedding/vitest.config.ts",
      ],
      { encoding: "utf8", timeout: 120_000 },
    );
    expect(JSON.parse(stdout)).toMatchObject({ success: true, numFailedTests: 0, numPassedTests: 4 });
  });

  for (const host of ["express-host", "hono-host"]) {
    it(`mounts the adapter behind the host's own auth (${host})`, async () => {
      const { stdout } = await tsx(`examples/${host}/main.ts`);
      expect(stdout).toContain("without a host session: 401");
      expect(stdout).toContain("with a host session: 200");
    });
  }

  it("explains a policy decision from the command line (policy-playground)", async () => {
    const { stdout } = await tsx("examples/policy-playground/main.ts", ["examples/policy-playground/sample.json"]);
    expect(stdout).toContain("decision: ALLOW");
    expect(stdout).toContain("allow-signing-approved-by-alice: OUTCOME_ALLOW");
    const refused = await tsx("examples/policy-playground/main.ts", [
      "--condition",
      "activity.resource ==",
      "--context",
      "examples/policy-playground/sample.json",
    ]).catch((error: { stdout: string; code: number }) => error);
    expect(refused).toMatchObject({ code: 1, stdout: expect.stringContaining("refused: condition:") });
  });

  describe("against the dev server (official-client)", () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-example-"));
    const server = startDevServer(["--port", "0", "--data", data]);
    afterAll(async () => {
      await server.stop();
      rmSync(data, { recursive: true, force: true });
    });

    it("creates a wallet with @turnkey/sdk-server and signs with @turnkey/viem", async () => {
      const baseUrl = await server.ready;
      const { stdout } = await tsx("examples/official-client/main.ts", [], {
        ...process.env,
        CUSTODIAN_URL: baseUrl,
        CUSTODIAN_CREDENTIALS: join(data, "root-api-key.json"),
      });
      expect(stdout).toContain("recovered");
    });

    it("asks whoami with the credentials file the dev server wrote (whoami.ts, the README's example)", async () => {
      await server.ready;
      const { stdout } = await tsx("examples/official-client/whoami.ts", [], {
        ...process.env,
        CUSTODIAN_CREDENTIALS: join(data, "root-api-key.json"),
      });
      expect(stdout).toContain("organizationId");
    });
  });
});
