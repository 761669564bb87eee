/**
 * Several wallet accounts at one path, as Turnkey's cosmjs and bitcoin examples create them through
 * @turnkey/sdk-server: an account is unique by (path, curve, address format), and `get_wallet_account` with a
 * path alone answers the oldest account at that path. Addresses are checked by @cosmjs and bitcoinjs-lib.
 */
import { encodeSecp256k1Pubkey, pubkeyToAddress } from "@cosmjs/amino";
import { Secp256k1, Secp256k1Signature, sha256 } from "@cosmjs/crypto";
import { fromHex } from "@cosmjs/encoding";
import { makeSignBytes } from "@cosmjs/proto-signing";
import { TurnkeyDirectWallet } from "@turnkey/cosmjs";
import { Turnkey } from "@turnkey/sdk-server";
import * as bitcoin from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIBRARY_CHECKS } from "../crypto/addresses/library-checks.js";
import { engineWithOrganization } from "../support/engine.js";
import { officialRefusal } from "../support/official-refusal.js";
import { type RunningServer, serve } from "../support/server.js";

type ApiClient = ReturnType<Turnkey["apiClient"]>;

let server: RunningServer;
let organizationId: string;
let api: ApiClient;
let countActivities: () => Promise<number>;

const COSMOS_PATH = "m/44'/118'/0'/0/0";
const TAPROOT_PATH = "m/86'/0'/0'/0/0";
type AddressFormat = Parameters<ApiClient["createWallet"]>[0]["accounts"][number]["addressFormat"];
const secp256k1Account = (path: string, addressFormat: AddressFormat) =>
  ({ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path, addressFormat }) as const;

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  organizationId = fixture.organizationId;
  server = await serve(fixture.engine);
  api = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: fixture.rootKey.publicKey,
    apiPrivateKey: fixture.rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
  countActivities = async () =>
    (await fixture.root.getActivities({ organizationId, paginationOptions: { limit: "100" } })).activities.length;
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("accounts sharing a derivation path", () => {
  it("creates UNCOMPRESSED and COSMOS at one path, as the cosmjs example does, and @turnkey/cosmjs signs with them", async () => {
    const { walletId, addresses } = await api.createWallet({
      walletName: "Cosmos",
      accounts: [
        secp256k1Account(COSMOS_PATH, "ADDRESS_FORMAT_UNCOMPRESSED"),
        secp256k1Account(COSMOS_PATH, "ADDRESS_FORMAT_COSMOS"),
      ],
    });
    const [uncompressed, cosmosAddress] = addresses as [string, string];
    const compressed = Secp256k1.compressPubkey(fromHex(uncompressed));
    expect(pubkeyToAddress(encodeSecp256k1Pubkey(compressed), "cosmos")).toBe(cosmosAddress);
    LIBRARY_CHECKS.ADDRESS_FORMAT_COSMOS.CURVE_SECP256K1.check(compressed, cosmosAddress);

    const { accounts } = await api.getWalletAccounts({ walletId });
    expect(accounts.map((a) => [a.path, a.addressFormat, a.address])).toEqual([
      [COSMOS_PATH, "ADDRESS_FORMAT_UNCOMPRESSED", uncompressed],
      [COSMOS_PATH, "ADDRESS_FORMAT_COSMOS", cosmosAddress],
    ]);

    // The example signs with the UNCOMPRESSED account and reads the Cosmos address off its public key.
    const wallet = await TurnkeyDirectWallet.init({
      config: { client: api as never, organizationId, signWith: uncompressed },
      prefix: "cosmos",
    });
    const [account] = await wallet.getAccounts();
    expect(account?.address).toBe(cosmosAddress);
    const signDoc = {
      bodyBytes: Uint8Array.of(1, 2),
      authInfoBytes: Uint8Array.of(3),
      chainId: "c",
      accountNumber: 1n,
    };
    const { signature } = await wallet.signDirect(cosmosAddress, signDoc);
    const verified = await Secp256k1.verifySignature(
      Secp256k1Signature.fromFixedLength(Buffer.from(signature.signature, "base64")),
      sha256(makeSignBytes(signDoc)),
      compressed,
    );
    expect(verified).toBe(true);
  });

  it("creates COMPRESSED and P2TR at one path, as the bitcoin example does, and bitcoinjs-lib derives the same address", async () => {
    const { addresses } = await api.createWallet({
      walletName: "Bitcoin",
      accounts: [
        secp256k1Account(TAPROOT_PATH, "ADDRESS_FORMAT_COMPRESSED"),
        secp256k1Account(TAPROOT_PATH, "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"),
      ],
    });
    const [publicKey, taproot] = addresses as [string, string];
    LIBRARY_CHECKS.ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR.CURVE_SECP256K1.check(Buffer.from(publicKey, "hex"), taproot);
    const internalPubkey = Buffer.from(publicKey, "hex").subarray(1, 33);
    expect(bitcoin.payments.p2tr({ internalPubkey, network: bitcoin.networks.bitcoin }).address).toBe(taproot);
  });

  it("adds a format at a used path with create_wallet_accounts, whatever the path's spelling", async () => {
    const { walletId } = await api.createWallet({
      walletName: "Grows",
      accounts: [secp256k1Account(COSMOS_PATH, "ADDRESS_FORMAT_COSMOS")],
    });
    const { addresses } = await api.createWalletAccounts({
      walletId,
      accounts: [
        secp256k1Account("m/44h/118h/0h/0/0", "ADDRESS_FORMAT_UNCOMPRESSED"),
        secp256k1Account("m/44h/118h/0h/0/0", "ADDRESS_FORMAT_ETHEREUM"),
      ],
    });
    expect(addresses).toHaveLength(2);
    const { accounts } = await api.getWalletAccounts({ walletId });
    // Stored in one canonical spelling, so the index sees `h` and `'` as the same path.
    expect(accounts.map((a) => a.path)).toEqual([COSMOS_PATH, COSMOS_PATH, COSMOS_PATH]);
  });

  it("refuses the same path, curve and format twice, in any spelling, and stores nothing", async () => {
    const { walletId } = await api.createWallet({
      walletName: "Once",
      accounts: [secp256k1Account(COSMOS_PATH, "ADDRESS_FORMAT_COSMOS")],
    });
    const before = await countActivities();

    const again = await officialRefusal(
      api.createWalletAccounts({
        walletId,
        accounts: [
          secp256k1Account("m/44'/118'/0'/0/0", "ADDRESS_FORMAT_UNCOMPRESSED"),
          secp256k1Account("m/44h/118h/0h/0/0", "ADDRESS_FORMAT_COSMOS"),
        ],
      }),
    );
    expect(again).toMatchObject({ code: 6, reason: "WALLET_ACCOUNT_PATH_EXISTS" });
    const twiceInOne = await officialRefusal(
      api.createWallet({
        walletName: "Twice",
        accounts: [
          secp256k1Account(COSMOS_PATH, "ADDRESS_FORMAT_COSMOS"),
          secp256k1Account("m/44h/118h/0h/0/0", "ADDRESS_FORMAT_COSMOS"),
        ],
      }),
    );
    expect(twiceInOne).toMatchObject({ code: 6, reason: "WALLET_ACCOUNT_PATH_EXISTS" });

    // The failed activities are recorded; no account, and no wallet "Twice", was stored.
    expect(await countActivities()).toBe(before + 2);
    expect((await api.getWalletAccounts({ walletId })).accounts).toHaveLength(1);
    expect((await api.getWallets()).wallets.map((w) => w.walletName)).not.toContain("Twice");
  });

  it("answers get_wallet_account with a path alone with the oldest account there; an address picks one", async () => {
    const { walletId, addresses } = await api.createWallet({
      walletName: "Lookup",
      accounts: [
        secp256k1Account(COSMOS_PATH, "ADDRESS_FORMAT_COSMOS"),
        secp256k1Account(COSMOS_PATH, "ADDRESS_FORMAT_UNCOMPRESSED"),
      ],
    });
    const [cosmosAddress, uncompressed] = addresses as [string, string];

    const byPath = await api.getWalletAccount({ walletId, path: "m/44h/118h/0h/0/0" });
    expect(byPath.account.addressFormat).toBe("ADDRESS_FORMAT_COSMOS");
    expect(byPath.account.address).toBe(cosmosAddress);

    const both = await api.getWalletAccount({ walletId, path: COSMOS_PATH, address: uncompressed });
    expect(both.account.addressFormat).toBe("ADDRESS_FORMAT_UNCOMPRESSED");
    // Every account on one curve at one path shares its key.
    expect(both.account.publicKey).toBe(byPath.account.publicKey);

    expect(
      await officialRefusal(api.getWalletAccount({ walletId, path: "m/44'/118'/0'/0/0", address: "cosmos1x" })),
    ).toMatchObject({
      code: 5,
    });
    const other = await api.createWalletAccounts({
      walletId,
      accounts: [secp256k1Account("m/44'/118'/0'/0/1", "ADDRESS_FORMAT_COSMOS")],
    });
    expect(
      await officialRefusal(
        api.getWalletAccount({ walletId, path: COSMOS_PATH, address: other.addresses[0] as string }),
      ),
    ).toMatchObject({ code: 3 });
  });
});
