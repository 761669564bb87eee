/**
 * Mounting the Activity API in a Hono app (Node, Bun, Deno, workers), behind the host's own
 * authentication: Hono's bearer-auth middleware guards `/public/v1/*`, then the fetch adapter verifies the
 * Turnkey stamp over the raw body. Driven in-process with `app.request`, no port.
 *
 *   node --import tsx examples/hono-host/main.ts
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { CustodyEngine } from "custodian";
import { createFetchHandler } from "custodian/http";
import { generateApiKeyPair } from "custodian/testing";
import { Hono } from "hono";
import { bearerAuth } from "hono/bearer-auth";

const HOST_SESSION = "host-session-token";
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

const custody = createFetchHandler(engine);
const app = new Hono();
app.use("/public/v1/*", bearerAuth({ token: HOST_SESSION }));
app.all("/public/v1/*", (c) => custody(c.req.raw));

const baseUrl = "http://host.test";
const signed = await new TurnkeyClient({ baseUrl }, new ApiKeyStamper(apiKey)).stampGetWhoami({ organizationId });
const send = (headers: Record<string, string>) =>
  app.request(signed.url, {
    method: "POST",
    body: signed.body,
    headers: { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue, ...headers },
  });

const refused = await send({});
console.log("without a host session:", refused.status);
const answered = await send({ authorization: `Bearer ${HOST_SESSION}` });
const whoami = (await answered.json()) as { organizationId: string };
console.log("with a host session:", answered.status, whoami);
if (refused.status !== 401 || answered.status !== 200 || whoami.organizationId !== organizationId) process.exit(1);
await engine.close();
