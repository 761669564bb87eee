/**
 * A small wallet app's custody layer, written against `@turnkey/sdk-server` as it would be in production.
 * Its tests (`wallet-app.test.ts`) run it against custodian in-process instead of a mocked Turnkey.
 */
import type { TurnkeyApiClient } from "@turnkey/sdk-server";

/** Creates a user's Ethereum wallet and returns its first address. */
export async function openEthereumWallet(client: TurnkeyApiClient, userName: string): Promise<string> {
  const { addresses } = await client.createWallet({
    walletName: `${userName}'s wallet`,
    accounts: [
      {
        curve: "CURVE_SECP256K1",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/44'/60'/0'/0/0",
        addressFormat: "ADDRESS_FORMAT_ETHEREUM",
      },
    ],
  });
  const [address] = addresses;
  if (!address) throw new Error("the wallet has no account");
  return address;
}

/** The names of the organization's wallets, for the app's account page. */
export async function walletNames(client: TurnkeyApiClient): Promise<string[]> {
  return (await client.getWallets()).wallets.map((wallet) => wallet.walletName);
}
