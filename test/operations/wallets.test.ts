import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { ADDRESS_FORMAT_SPECS, type HdCurve, SUPPORTED_ADDRESS_FORMATS } from "../../src/crypto/addresses/index.js";
import { hexToBytes } from "../../src/crypto/bytes.js";
import type { CustodyEngine } from "../../src/index.js";
import { SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { LIBRARY_CHECKS, type LibraryCheck } from "../crypto/addresses/library-checks.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

type Root = CustodyEngine;

const eth = (path: string) => ({
  curve: "CURVE_SECP256K1" as const,
  pathFormat: "PATH_FORMAT_BIP32" as const,
  path,
  addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const,
});

type AccountParams = Parameters<CustodyEngine["createWallet"]>[0]["parameters"]["accounts"];

async function newWallet(
  root: Root,
  organizationId: string,
  walletName: string,
  accounts: AccountParams = [eth("m/44'/60'/0'/0/0")],
) {
  const { activity } = await root.createWallet({ organizationId, parameters: { walletName, accounts } });
  return activity.result!.createWalletResult as { walletId: string; addresses: string[] };
}

/** Every string anywhere in a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) strings(item, out);
  return out;
}

/** Whether a string holds a run of 12 or more BIP39 words: what a leaked mnemonic looks like. */
const words = new Set(wordlist);
function looksLikeMnemonic(text: string): boolean {
  let run = 0;
  for (const word of text.split(/\s+/)) {
    run = words.has(word) ? run + 1 : 0;
    if (run >= 12) return true;
  }
  return false;
}

describe("wallets", () => {
  it("creates a wallet with accounts and lists and gets it", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId, addresses } = await newWallet(root, organizationId, "Main", [
      eth("m/44'/60'/0'/0/0"),
      SOLANA_ACCOUNT,
    ]);
    expect(addresses).toHaveLength(2);
    expect(addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const { wallet } = await root.getWallet({ organizationId, walletId });
    expect(wallet).toMatchObject({ walletId, walletName: "Main", exported: false, imported: false });
    expect((await root.getWallets({ organizationId })).wallets.map((w) => w.walletId)).toEqual([walletId]);
    const { accounts } = await root.getWalletAccounts({ organizationId, walletId, includeWalletDetails: true });
    expect(accounts.map((a) => a.address)).toEqual(addresses);
    expect(accounts[0]).toMatchObject({
      walletId,
      organizationId,
      curve: "CURVE_SECP256K1",
      path: "m/44'/60'/0'/0/0",
      walletDetails: { walletName: "Main" },
    });
    expect(accounts[0]?.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(accounts[1]?.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect((await root.getOrganization({ organizationId })).organizationData.wallets.map((w) => w.walletId)).toEqual([
      walletId,
    ]);
  });

  it("derives every one of the 35 address formats at two paths, each checked by its chain's library", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const cases = SUPPORTED_ADDRESS_FORMATS.flatMap((format) =>
      (ADDRESS_FORMAT_SPECS[format].curves as readonly HdCurve[]).map((curve) => ({ format, curve })),
    );
    const accounts = cases.flatMap(({ format, curve }, i) =>
      [i, i + 500].map((n) => ({
        curve,
        pathFormat: "PATH_FORMAT_BIP32" as const,
        path: curve === "CURVE_ED25519" ? `m/44'/${n}'/0'/0'` : `m/44'/${n}'/0'/0/0`,
        addressFormat: format,
      })),
    );
    const { walletId } = await newWallet(root, organizationId, "All formats", accounts);
    const { accounts: created } = await root.getWalletAccounts({
      organizationId,
      walletId,
      paginationOptions: { limit: "100" },
    });
    expect(created).toHaveLength(accounts.length);
    expect(new Set(cases.map((c) => c.format)).size).toBe(35);
    for (const account of created) {
      const checks: Partial<Record<HdCurve, LibraryCheck>> =
        LIBRARY_CHECKS[account.addressFormat as keyof typeof LIBRARY_CHECKS];
      const check = checks[account.curve as HdCurve] as LibraryCheck;
      check.check(hexToBytes(account.publicKey as string), account.address);
    }
  });

  it("adds accounts from the same seed, refuses a path already used, and previews without storing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId, addresses } = await newWallet(root, organizationId, "Seeded");
    // A preview at the existing path gives the existing address: the same seed.
    const preview = await root.createWalletAccounts({
      organizationId,
      parameters: { walletId, accounts: [eth("m/44h/60h/0h/0/0")], persist: false },
    });
    expect(preview.activity.result!.createWalletAccountsResult).toEqual({ addresses });
    await expectCustodyError(
      root.createWalletAccounts({ organizationId, parameters: { walletId, accounts: [eth("m/44h/60h/0h/0/0")] } }),
      "ALREADY_EXISTS",
      "parameters.accounts[0].path",
    );
    const more = await root.createWalletAccounts({
      organizationId,
      parameters: { walletId, accounts: [eth("m/44'/60'/0'/0/1"), eth("m/44'/60'/0'/0/2")] },
    });
    expect((more.activity.result!.createWalletAccountsResult as { addresses: string[] }).addresses).toHaveLength(2);
    await expectCustodyError(
      root.createWalletAccounts({
        organizationId,
        parameters: { walletId, accounts: [eth("m/44'/60'/0'/0/3"), eth("m/44'/60'/0'/0/3")] },
      }),
      "ALREADY_EXISTS",
      "parameters.accounts[1].path",
    );
    expect((await root.getWalletAccounts({ organizationId, walletId })).accounts).toHaveLength(3);
  });

  it("refuses malformed paths, unknown formats and curve/format mismatches, storing nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId } = await newWallet(root, organizationId, "Strict");
    const bad: [Record<string, unknown>, string, string][] = [
      [eth("m/44'/x"), "INVALID_ARGUMENT", "parameters.accounts[0].path"],
      [eth(""), "INVALID_ARGUMENT", "parameters.accounts[0].path"],
      [eth(`m${"/0".repeat(256)}`), "INVALID_ARGUMENT", "parameters.accounts[0].path"],
      [eth("m/44'/60'/0'/0/2147483648"), "INVALID_ARGUMENT", "parameters.accounts[0].path"],
      [
        { ...eth("m/0"), addressFormat: "ADDRESS_FORMAT_DOGE_CLASSIC" },
        "INVALID_ARGUMENT",
        "parameters.accounts[0].addressFormat",
      ],
      [
        { ...eth("m/44'/501'/0'/0'"), curve: "CURVE_ED25519" },
        "INVALID_ARGUMENT",
        "parameters.accounts[0].addressFormat",
      ],
      [
        { ...eth("m/44'/501'/0'/0'"), addressFormat: "ADDRESS_FORMAT_SOLANA" },
        "INVALID_ARGUMENT",
        "parameters.accounts[0].addressFormat",
      ],
    ];
    for (const [account, code, field] of bad) {
      await expectCustodyError(
        root.createWalletAccounts({
          organizationId,
          parameters: { walletId, accounts: [account as ReturnType<typeof eth>] },
        }),
        code,
        field,
      );
    }
    expect((await root.getWalletAccounts({ organizationId, walletId })).accounts).toHaveLength(1);
    await expectCustodyError(newWallet(root, organizationId, "Strict"), "ALREADY_EXISTS", "parameters.walletName");
    await expectCustodyError(
      root.createWallet({ organizationId, parameters: { walletName: "Bad length", accounts: [], mnemonicLength: 13 } }),
      "INVALID_ARGUMENT",
      "parameters.mnemonicLength",
    );
    expect((await root.getWallets({ organizationId })).wallets).toHaveLength(1);
  });

  it("serves 1,000 accounts in one request and refuses 1,001", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId } = await newWallet(root, organizationId, "Big", []);
    const accounts = (n: number, offset = 0) =>
      Array.from({ length: n }, (_, i) => ({
        ...eth(`m/44'/60'/0'/0/${offset + i}`),
        addressFormat: "ADDRESS_FORMAT_COMPRESSED" as const,
      }));
    await expectCustodyError(
      root.createWalletAccounts({ organizationId, parameters: { walletId, accounts: accounts(1001) } }),
      "INVALID_ARGUMENT",
      "parameters.accounts",
    );
    const { activity } = await root.createWalletAccounts({
      organizationId,
      parameters: { walletId, accounts: accounts(1000) },
    });
    expect((activity.result!.createWalletAccountsResult as { addresses: string[] }).addresses).toHaveLength(1000);
  });

  // Ten thousand derivations: seconds on a quiet machine, more beside a busy test run (hence the time-out).
  it("pages a 10,000-account wallet forwards and backwards in creation order", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId } = await newWallet(root, organizationId, "Huge", []);
    for (let batch = 0; batch < 10; batch++) {
      const accounts = Array.from({ length: 1000 }, (_, i) => ({
        ...eth(`m/44'/60'/0'/0/${batch * 1000 + i}`),
        addressFormat: "ADDRESS_FORMAT_COMPRESSED" as const,
      }));
      await root.createWalletAccounts({ organizationId, parameters: { walletId, accounts } });
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const { accounts } = await root.getWalletAccounts({
        organizationId,
        walletId,
        paginationOptions: { limit: "100", ...(after ? { after } : {}) },
      });
      seen.push(...accounts.map((a) => a.path));
      if (accounts.length < 100) break;
      after = accounts[accounts.length - 1]?.walletAccountId;
    }
    expect(seen).toHaveLength(10_000);
    expect(seen[0]).toBe("m/44'/60'/0'/0/0");
    expect(seen[9_999]).toBe("m/44'/60'/0'/0/9999");
    expect(new Set(seen).size).toBe(10_000);
    // Backwards from the end: the page just before the cursor, still oldest first.
    const last = (
      await root.getWalletAccounts({ organizationId, walletId, paginationOptions: { limit: "100", after: after! } })
    ).accounts;
    expect(last).toEqual([]);
    const tail = await root.getWalletAccounts({
      organizationId,
      paginationOptions: {
        limit: "3",
        before: (await accountAt(root, organizationId, walletId, 5000)).walletAccountId,
      },
    });
    expect(tail.accounts.map((a) => a.path)).toEqual([
      "m/44'/60'/0'/0/4997",
      "m/44'/60'/0'/0/4998",
      "m/44'/60'/0'/0/4999",
    ]);
    // The organization-wide listing (no walletId) walks the same accounts.
    const orgPage = await root.getWalletAccounts({ organizationId, paginationOptions: { limit: "2" } });
    expect(orgPage.accounts.map((a) => a.path)).toEqual(["m/44'/60'/0'/0/0", "m/44'/60'/0'/0/1"]);
  }, 120_000);

  it("gets an account by address or by path, which must agree", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId, addresses } = await newWallet(root, organizationId, "Lookup", [
      eth("m/44'/60'/0'/0/0"),
      eth("m/44'/60'/0'/0/1"),
    ]);
    const byAddress = await root.getWalletAccount({ organizationId, walletId, address: addresses[1]!.toLowerCase() });
    expect(byAddress.account.path).toBe("m/44'/60'/0'/0/1");
    const byPath = await root.getWalletAccount({ organizationId, walletId, path: "m/44h/60h/0h/0/1" });
    expect(byPath.account.address).toBe(addresses[1]);
    expect(
      (await root.getWalletAccount({ organizationId, walletId, address: addresses[0]!, path: "m/44'/60'/0'/0/0" }))
        .account.address,
    ).toBe(addresses[0]);
    await expectCustodyError(
      root.getWalletAccount({ organizationId, walletId, address: addresses[0]!, path: "m/44'/60'/0'/0/1" }),
      "INVALID_ARGUMENT",
      "path",
    );
    await expectCustodyError(root.getWalletAccount({ organizationId, walletId }), "INVALID_ARGUMENT", "address");
    await expectCustodyError(
      root.getWalletAccount({ organizationId, walletId, path: "m/44'/60'/0'/0/9" }),
      "NOT_FOUND",
      "path",
    );
    await expectCustodyError(
      root.getWalletAccount({ organizationId, walletId, address: "0x0000000000000000000000000000000000000000" }),
      "NOT_FOUND",
      "address",
    );
    await expectCustodyError(root.getWallet({ organizationId, walletId: "nope" }), "NOT_FOUND", "walletId");
  });

  it("renames a wallet, refusing a name in use", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId } = await newWallet(root, organizationId, "A");
    await newWallet(root, organizationId, "B", [eth("m/44'/60'/1'/0/0")]);
    await expectCustodyError(
      root.updateWallet({ organizationId, parameters: { walletId, walletName: "B" } }),
      "ALREADY_EXISTS",
      "parameters.walletName",
    );
    await root.updateWallet({ organizationId, parameters: { walletId, walletName: "C" } });
    expect((await root.getWallet({ organizationId, walletId })).wallet.walletName).toBe("C");
  });

  it("creates the optional wallet of a sub-organization", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createSubOrganization({
      organizationId,
      parameters: {
        subOrganizationName: "With wallet",
        rootUsers: [
          {
            userName: "u",
            apiKeys: [],
            authenticators: [],
            oauthProviders: [],
          },
        ],
        rootQuorumThreshold: 1,
        wallet: { walletName: "Default", accounts: [eth("m/44'/60'/0'/0/0")] },
      },
    });
    const result = activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      wallet: { walletId: string; addresses: string[] };
    };
    expect(result.wallet.addresses).toHaveLength(1);
    const wallets = (await root.getWallets({ organizationId: result.subOrganizationId })).wallets;
    expect(wallets.map((w) => w.walletId)).toEqual([result.wallet.walletId]);
  });

  it("never lets a mnemonic out: not in activities, responses or stored records", async () => {
    const { root, organizationId, engine } = await engineWithOrganization();
    await newWallet(root, organizationId, "Secret", [eth("m/44'/60'/0'/0/0")]);
    const { activities } = await root.getActivities({ organizationId });
    const organization = await root.getOrganization({ organizationId });
    for (const text of strings([activities, organization])) expect(looksLikeMnemonic(text)).toBe(false);
    const stored = await engine.store.read(async (r) => [
      ...(await r.list("wallets", organizationId)),
      ...(await r.list("meta", "meta")),
    ]);
    expect(stored.length).toBeGreaterThan(1);
    for (const text of strings(stored)) expect(looksLikeMnemonic(text)).toBe(false);
  });
});

async function accountAt(root: Root, organizationId: string, walletId: string, index: number) {
  return (await root.getWalletAccount({ organizationId, walletId, path: `m/44'/60'/0'/0/${index}` })).account;
}
