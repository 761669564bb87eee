/**
 * Mounting the Activity API in an express app, behind the host's own authentication: the host checks its
 * session first, then the adapter verifies the Turnkey stamp over the raw body. Mount it before any JSON
 * body parser (the stamp signs the exact bytes).
 *
 *   node --import tsx examples/express-host/main.ts
 */
import type { AddressInfo } from "node:net";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { CustodyEngine } from "custodian";
import { createHttpHandler } from "custodian/http";
import { generateApiKeyPair } from "custodian/testing";
import express from "express";

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

const app = express();
// The host's own gate: only its signed-in sessions reach the engine.
app.use("/public/v1", (req, res, next) => {
  if (req.get("authorization") !== `Bearer ${HOST_SESSION}`) {
    res.status(401).json({ error: "sign in to the host first" });
    return;
  }
  next();
});
app.use(createHttpHandler(engine));
app.use(express.json()); // the host's other routes may parse JSON: after the adapter, never before it

const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// @turnkey/http signs the request; the host adds its session header and sends it.
const signed = await new TurnkeyClient({ baseUrl }, new ApiKeyStamper(apiKey)).stampGetWhoami({ organizationId });
const send = (headers: Record<string, string>) =>
  fetch(signed.url, {
    method: "POST",
    body: signed.body,
    headers: { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue, ...headers },
  });

const refused = await send({});
console.log("without a host session:", refused.status, await refused.json());
const answered = await send({ authorization: `Bearer ${HOST_SESSION}` });
const whoami = (await answered.json()) as { organizationId: string };
console.log("with a host session:", answered.status, whoami);
if (refused.status !== 401 || answered.status !== 200 || whoami.organizationId !== organizationId) process.exit(1);
server.close();
await engine.close();
