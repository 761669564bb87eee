import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { CustodyEngine } from "custodian";
import { createHttpHandler } from "custodian/http";
import { generateApiKeyPair } from "custodian/testing";

const engine = new CustodyEngine();
const apiKey = generateApiKeyPair();
const { organizationId } = await engine.createOrganization({
  organizationName: "Acme",
  rootUsers: [
    {
      userName: "root",
      apiKeys: [{ apiKeyName: "k", publicKey: apiKey.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
    },
  ],
});

// node:http, express or connect; createFetchHandler(engine) serves fetch-style hosts (Hono, Bun, Deno, workers).
const server = createServer(createHttpHandler(engine)).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const client = new TurnkeyClient({ baseUrl }, new ApiKeyStamper(apiKey)); // the official client, unchanged
console.log(await client.getWhoami({ organizationId }));
server.close();
await engine.close();
