/**
 * The server half of `http.bench.ts`: an engine with the benchmark's signing organization behind
 * `createHttpHandler` on a free loopback port, in its own process so the load generator does not share its
 * event loop. Prints one JSON line (port and the fixture's public facts, plus the member's API key so the
 * parent can stamp requests) and serves until its parent closes stdin.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createHttpHandler } from "../dist/http.js";
import { signingOrganization } from "./support.js";

const fixture = await signingOrganization(10);
const server = createServer({ keepAlive: true }, createHttpHandler(fixture.engine));
// The load generator keeps its connections for the whole run, with pauses of seconds while it measures the
// in-process engine: longer than node's default 5 s before an idle connection is closed.
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(
    `${JSON.stringify({
      port,
      organizationId: fixture.organizationId,
      signerKey: fixture.signerKey,
      ethereumAddress: fixture.ethereumAddress,
      solanaAddress: fixture.solanaAddress,
    })}\n`,
  );
});
process.stdin.resume();
process.stdin.on("end", () => server.close(() => process.exit(0)));
