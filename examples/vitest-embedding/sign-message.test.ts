import { Turnkey } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import { createTestOrganization } from "custodian/testing";
import { recoverMessageAddress } from "viem";
import { afterAll, expect, it, vi } from "vitest";

const org = await createTestOrganization(); // a real engine in-process: an organization, a root user, its API key
vi.stubGlobal("fetch", org.fetch); // @turnkey/sdk-server sends through the global fetch: now to custodian
const client = new Turnkey(org.turnkeyConfig).apiClient();
afterAll(() => org.close());

it("signs a message that viem recovers to the wallet's address", async () => {
  const account = {
    curve: "CURVE_SECP256K1",
    pathFormat: "PATH_FORMAT_BIP32",
    path: "m/44'/60'/0'/0/0",
    addressFormat: "ADDRESS_FORMAT_ETHEREUM",
  } as const;
  const { addresses } = await client.createWallet({ walletName: "w", accounts: [account] });
  const signer = await createAccount({
    client: client as never,
    organizationId: org.organizationId,
    signWith: addresses[0] as string,
  });
  const signature = await signer.signMessage({ message: "hi" });
  expect(await recoverMessageAddress({ message: "hi", signature })).toBe(addresses[0]);
});
