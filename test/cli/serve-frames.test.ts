/**
 * `custodian serve --frames-port`: the frames' own listener, apart from the API's port, and how a bad or busy
 * port is reported before anything is written.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startDevServer } from "../support/dev-server.js";

function dataPath(): string {
  return join(mkdtempSync(join(tmpdir(), "custodian-frames-port-")), "data");
}

describe("custodian serve --frames-port", () => {
  it("serves the frames on the port named, another origin than the API's", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    // Freed for the server to take: a port known to be free a moment ago.
    await new Promise((closed) => blocker.close(closed));
    const server = startDevServer(["--port", "0", "--memory", "--data", dataPath(), "--frames-port", String(port)]);
    try {
      const baseUrl = await server.ready;
      expect(server.output()).toContain(`export frame http://127.0.0.1:${port}/export`);
      const page = await fetch(`http://127.0.0.1:${port}/import`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<textarea id="plaintext"');
      expect(new URL(baseUrl).port).not.toBe(String(port));
      // The API's port does not serve them: the frames' origin is theirs alone.
      expect((await fetch(`${baseUrl}/export`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("names a frames port in use with its own flag, and writes nothing", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    const data = dataPath();
    const server = startDevServer(["--port", "0", "--data", data, "--frames-port", String(port)]);
    const error = await server.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    blocker.close();
    expect(error?.message).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect(error?.message).toContain("--frames-port 0 picks a free one");
    expect(existsSync(data)).toBe(false);
  }, 60_000);

  it("refuses a port that is not one", async () => {
    const run = await runCli(["serve", "--port", "0", "--data", dataPath(), "--frames-port", "70000"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--frames-port must be 0-65535, got 70000");
    const last = await runCli(["serve", "--port", "65535", "--data", dataPath()]);
    expect(last.code).not.toBe(0);
    expect(last.stderr).toContain("--port 65535 leaves no next port for the frames: name one with --frames-port");
  }, 60_000);
});
