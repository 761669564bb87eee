/**
 * The wallet app's tests, with custodian in place of a mocked Turnkey: a real organization in-process, the
 * official client talking to it through an in-process fetch, signatures checked by viem, and a snapshot
 * restored before each test so tests do not see each other's wallets.
 *
 *   npx vitest run --config examples/vitest-embedding/vitest.config.ts
 */
import { Turnkey, type TurnkeyApiClient } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import { createTestOrganization, type TestOrganization, type TestOrganizationSnapshot } from "custodian/testing";
import { recoverMessageAddress } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openEthereumWallet, walletNames } from "./wallet-app.js";

let org: TestOrganization;
let fresh: TestOrganizationSnapshot;
let client: TurnkeyApiClient;

beforeAll(async () => {
  org = await createTestOrganization({ seed: "wallet app", startMs: Date.now() });
  vi.stubGlobal("fetch", org.fetch); // @turnkey/sdk-server sends through the global fetch
  client = new Turnkey(org.turnkeyConfig).apiClient();
  fresh = await org.snapshot();
});

beforeEach(() => org.restore(fresh));

afterAll(async () => {
  vi.unstubAllGlobals();
  await org.close();
});

describe("wallet app", () => {
  it("opens a wallet whose account signs messages viem recovers", async () => {
    const address = await openEthereumWallet(client, "alice");
    const account = await createAccount({
      client: client as never,
      organizationId: org.organizationId,
      signWith: address,
    });
    const message = "log in to the wallet app";
    expect(await recoverMessageAddress({ message, signature: await account.signMessage({ message }) })).toBe(address);
  });

  it("lists the wallets it opened, and only this test's", async () => {
    await openEthereumWallet(client, "bob");
    expect(await walletNames(client)).toEqual(["bob's wallet"]);
  });

  it("refuses a second wallet of the same name, as the hosted service does", async () => {
    await openEthereumWallet(client, "carol");
    await expect(openEthereumWallet(client, "carol")).rejects.toThrow(/already exists/);
  });
});
