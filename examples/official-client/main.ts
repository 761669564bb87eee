/**
 * The official clients against the dev server, as a wallet app would use them: `@turnkey/sdk-server`
 * creates a wallet, `@turnkey/viem` signs a message with it, and viem checks the signature.
 *
 *   npm start                                          # in one terminal: the dev server on :8080
 *   node --import tsx examples/official-client/main.ts # in another
 *
 * `CUSTODIAN_URL` (default http://127.0.0.1:8080) and `CUSTODIAN_CREDENTIALS` (default
 * .custodian/root-api-key.json, which the dev server writes) say where the server and its root key are.
 */
import { readFileSync } from "node:fs";
import { Turnkey } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import { recoverMessageAddress } from "viem";

const baseUrl = process.env.CUSTODIAN_URL ?? "http://127.0.0.1:8080";
const credentials = JSON.parse(
  readFileSync(process.env.CUSTODIAN_CREDENTIALS ?? ".custodian/root-api-key.json", "utf8"),
) as { organizationId: string; apiPublicKey: string; apiPrivateKey: string };

const client = new Turnkey({
  apiBaseUrl: baseUrl,
  apiPublicKey: credentials.apiPublicKey,
  apiPrivateKey: credentials.apiPrivateKey,
  defaultOrganizationId: credentials.organizationId,
}).apiClient();

const { addresses } = await client.createWallet({
  walletName: `example ${Date.now()}`,
  accounts: [
    {
      curve: "CURVE_SECP256K1",
      pathFormat: "PATH_FORMAT_BIP32",
      path: "m/44'/60'/0'/0/0",
      addressFormat: "ADDRESS_FORMAT_ETHEREUM",
    },
  ],
});
const address = addresses[0] as string;
// @turnkey/viem pins its own copy of the client types: the same client at run time.
const account = await createAccount({
  client: client as never,
  organizationId: credentials.organizationId,
  signWith: address,
});
const message = "hello from the official clients";
const signature = await account.signMessage({ message });
const recovered = await recoverMessageAddress({ message, signature });
console.log({ address, signature, recovered });
if (recovered !== address) process.exit(1);
