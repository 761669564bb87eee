import { CustodyEngine, CustodyError } from "custodian";
import { generateApiKeyPair } from "custodian/testing";

const engine = new CustodyEngine(); // state in memory; FileStore and PostgresStore keep it
const { apiPublicKey } = generateApiKeyPair();
const { organizationId, rootUserIds } = await engine.createOrganization({
  organizationName: "Acme",
  rootUsers: [
    {
      userName: "alice",
      apiKeys: [{ apiKeyName: "laptop", publicKey: apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
    },
  ],
});

// Every change is an activity, submitted as a user and decided by the organization's policies.
const alice = engine.as({ userId: rootUserIds[0] as string });
const account = {
  curve: "CURVE_SECP256K1",
  pathFormat: "PATH_FORMAT_BIP32",
  path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
} as const;
const { activity } = await alice.createWallet({
  organizationId,
  parameters: { walletName: "main", accounts: [account] },
});
console.log(activity.status, activity.result?.createWalletResult.addresses);

try {
  await alice.createWallet({ organizationId, parameters: { walletName: "main", accounts: [account] } });
} catch (error) {
  if (!(error instanceof CustodyError)) throw error;
  console.log("refused:", error.code, error.details.field ?? "", error.message); // nothing was stored
}
