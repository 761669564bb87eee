/**
 * Credential, export and import bundles through the HTTP adapter with the official clients, unchanged
 * (compatibility test plan items 6 and 12): @turnkey/sdk-server sends the activities, @turnkey/crypto opens
 * and seals the bundles, @turnkey/api-key-stamper stamps with the session key, and the chain libraries
 * re-derive every exported account.
 */

import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { Keypair } from "@solana/web3.js";
import {
  decryptCredentialBundle,
  decryptExportBundle,
  encryptWalletToBundle,
  generateP256KeyPair,
} from "@turnkey/crypto";
import { Turnkey } from "@turnkey/sdk-server";
import { HDKey as Slip10HDKey } from "micro-key-producer/slip10.js";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADDRESS_FORMAT_SPECS,
  defaultAccountPath,
  type HdCurve,
  SUPPORTED_ADDRESS_FORMATS,
} from "../../src/crypto/addresses/index.js";
import { LIBRARY_CHECKS, type LibraryCheck } from "../crypto/addresses/library-checks.js";
import { type ApiKeyPair, engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection, sessionClient } from "../support/session-client.js";

const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

let server: RunningServer;
let organizationId: string;
let rootUserId: string;
let rootKey: ApiKeyPair;
let signer: string;
let tk: ReturnType<Turnkey["apiClient"]>;
/** Added to the wall clock by the engine's injected clock, to let session keys expire. */
let clockOffsetMs = 0;

beforeAll(async () => {
  const fixture = await engineWithOrganization({ clock: () => Date.now() + clockOffsetMs });
  ({ organizationId, rootUserId, rootKey } = fixture);
  signer = await fixture.engine.signerPublicKey();
  server = await serve(fixture.engine);
  tk = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: rootKey.publicKey,
    apiPrivateKey: rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("read-write session bundles (test plan 6)", () => {
  it.each([
    ["uncompressed", "publicKeyUncompressed"],
    ["compressed", "publicKey"],
  ] as const)("opens with decryptCredentialBundle for a %s target, and the key stamps requests", async (_, form) => {
    const target = generateP256KeyPair();
    const result = await tk.createReadWriteSession({ targetPublicKey: target[form] });
    expect(result).toMatchObject({ organizationId, userId: rootUserId, username: "root" });
    const privateKey = decryptCredentialBundle(result.credentialBundle, target.privateKey);
    expect(privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await sessionClient(server.baseUrl, privateKey).getWhoami({ organizationId })).toMatchObject({
      organizationId,
      userId: rootUserId,
    });
    const { apiKeys } = await tk.getApiKeys({ userId: rootUserId });
    expect(apiKeys.find((key) => key.apiKeyId === result.apiKeyId)).toMatchObject({
      expirationSeconds: "900",
      credential: { type: "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256" },
    });
  });

  it("stops authenticating once expirationSeconds have passed on the engine's clock", async () => {
    const target = generateP256KeyPair();
    const result = await tk.createReadWriteSession({ targetPublicKey: target.publicKey, expirationSeconds: "60" });
    const session = sessionClient(server.baseUrl, decryptCredentialBundle(result.credentialBundle, target.privateKey));
    clockOffsetMs = 59_000;
    try {
      expect((await session.getWhoami({ organizationId })).userId).toBe(rootUserId);
      clockOffsetMs = 60_000;
      const error = await requestRejection(session.getWhoami({ organizationId }));
      expect(error.code).toBe(16);
      expect(reasonOf(error)).toBe("API_KEY_EXPIRED");
    } finally {
      clockOffsetMs = 0;
    }
  });
});

/** Every supported address format on every curve it takes, each at its own account index so no two clash. */
function everyAccount() {
  return SUPPORTED_ADDRESS_FORMATS.flatMap((format) =>
    (ADDRESS_FORMAT_SPECS[format].curves as readonly HdCurve[]).map((curve) => ({ format, curve })),
  ).map(({ format, curve }, i) => ({
    curve,
    pathFormat: "PATH_FORMAT_BIP32" as const,
    path: defaultAccountPath(format, i) ?? `m/0'/${i}'`,
    addressFormat: format,
  }));
}

/** The public key at `path` derived from `mnemonic` by the HD libraries, independently of custodian. */
function libraryPublicKey(mnemonic: string, curve: HdCurve, path: string): Uint8Array {
  const seed = mnemonicToSeedSync(mnemonic);
  if (curve === "CURVE_SECP256K1") return HDKey.fromMasterSeed(seed).derive(path).publicKey as Uint8Array;
  return Slip10HDKey.fromMasterSeed(seed).derive(path, true).publicKeyRaw;
}

describe("export bundles (test plan 12)", () => {
  it("exports a mnemonic that re-derives every account address with the chain libraries", async () => {
    const accounts = everyAccount();
    const { walletId } = await tk.createWallet({ walletName: "every format", accounts });
    const target = generateP256KeyPair();
    const { exportBundle } = await tk.exportWallet({ walletId, targetPublicKey: target.publicKeyUncompressed });
    const mnemonic = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signer,
      returnMnemonic: true,
    });
    const listed = await tk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } });
    expect(listed.accounts).toHaveLength(accounts.length);
    for (const account of listed.accounts) {
      const curve = account.curve as HdCurve;
      const checks = LIBRARY_CHECKS[account.addressFormat as keyof typeof LIBRARY_CHECKS] as Partial<
        Record<HdCurve, LibraryCheck>
      >;
      (checks[curve] as LibraryCheck).check(libraryPublicKey(mnemonic, curve, account.path), account.address);
      if (account.addressFormat === "ADDRESS_FORMAT_ETHEREUM") {
        expect(mnemonicToAccount(mnemonic, { path: account.path as `m/44'/60'/${string}` }).address).toBe(
          account.address,
        );
      }
      if (account.addressFormat === "ADDRESS_FORMAT_SOLANA") {
        const seed = Slip10HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(account.path, true).privateKey;
        expect(Keypair.fromSeed(seed).publicKey.toBase58()).toBe(account.address);
      }
    }
    expect((await tk.getWallet({ walletId })).wallet.exported).toBe(true);
  });

  it("is refused by decryptExportBundle without the engine's signer key as override", async () => {
    const { walletId } = await tk.createWallet({ walletName: "pinned", accounts: [] });
    const target = generateP256KeyPair();
    const { exportBundle } = await tk.exportWallet({ walletId, targetPublicKey: target.publicKey });
    await expect(
      decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId, returnMnemonic: true }),
    ).rejects.toThrow(/expected signer key/);
  });
});

describe("import bundles", () => {
  it("imports encryptWalletToBundle's bundle of the BIP39 test mnemonic: the published BIP44/84/86 and Ethereum addresses", async () => {
    const { importBundle } = await tk.initImportWallet({ userId: rootUserId });
    const encryptedBundle = await encryptWalletToBundle({
      mnemonic: TEST_MNEMONIC,
      importBundle,
      userId: rootUserId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signer,
    });
    const secp = (path: string, addressFormat: string) => ({
      curve: "CURVE_SECP256K1" as const,
      pathFormat: "PATH_FORMAT_BIP32" as const,
      path,
      addressFormat: addressFormat as "ADDRESS_FORMAT_ETHEREUM",
    });
    const { walletId, addresses } = await tk.importWallet({
      userId: rootUserId,
      walletName: "abandon",
      encryptedBundle,
      accounts: [
        secp("m/44'/0'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"),
        secp("m/84'/0'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"),
        secp("m/86'/0'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"),
        secp("m/44'/60'/0'/0/0", "ADDRESS_FORMAT_ETHEREUM"),
      ],
    });
    expect(addresses).toEqual([
      "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA",
      "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
      "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr",
      "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
    ]);
    expect((await tk.getWallet({ walletId })).wallet).toMatchObject({ imported: true, exported: false });
  });
});
