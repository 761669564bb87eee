import { readFileSync } from "node:fs";
import { Turnkey } from "@turnkey/sdk-server";

// What `npm start` wrote: the server's address, the organization and its root API key (mode 0600).
const credentials = JSON.parse(
  readFileSync(process.env.CUSTODIAN_CREDENTIALS ?? ".custodian/root-api-key.json", "utf8"),
);

const client = new Turnkey({
  apiBaseUrl: credentials.baseUrl,
  apiPublicKey: credentials.apiPublicKey,
  apiPrivateKey: credentials.apiPrivateKey,
  defaultOrganizationId: credentials.organizationId,
}).apiClient();
console.log(await client.getWhoami());
