/**
 * Import in-process: the target handshake with `@turnkey/crypto`'s `encryptWalletToBundle` and
 * `encryptPrivateKeyToBundle`, the published addresses of the BIP39 test mnemonic, and every refusal,
 * each leaving nothing behind.
 */
import { readFileSync } from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { encryptPrivateKeyToBundle, encryptWalletToBundle } from "@turnkey/crypto";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

interface KnownAddress {
  mnemonic: string;
  curve: "CURVE_SECP256K1" | "CURVE_ED25519";
  path: string;
  addressFormat: string;
  address: string;
}

const KNOWN = (
  JSON.parse(readFileSync(new URL("../vectors/known-addresses.json", import.meta.url), "utf8")) as {
    vectors: KnownAddress[];
  }
).vectors;
const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const ETH_PATH = "m/44'/60'/0'/0/0";
const eth = (path = ETH_PATH) => ({
  curve: "CURVE_SECP256K1" as const,
  pathFormat: "PATH_FORMAT_BIP32" as const,
  path,
  addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const,
});

type Fixture = Awaited<ReturnType<typeof engineWithOrganization>> & { signer: string };

async function fixture(): Promise<Fixture> {
  const base = await engineWithOrganization();
  return { ...base, signer: await base.engine.signerPublicKey() };
}

async function initWallet(f: Fixture, userId = f.rootUserId): Promise<string> {
  const { activity } = await f.root.initImportWallet({ organizationId: f.organizationId, parameters: { userId } });
  return (activity.result!.initImportWalletResult as { importBundle: string }).importBundle;
}

async function initKey(f: Fixture): Promise<string> {
  const { activity } = await f.root.initImportPrivateKey({
    organizationId: f.organizationId,
    parameters: { userId: f.rootUserId },
  });
  return (activity.result!.initImportPrivateKeyResult as { importBundle: string }).importBundle;
}

function sealWallet(f: Fixture, importBundle: string, mnemonic: string): Promise<string> {
  return encryptWalletToBundle({
    mnemonic,
    importBundle,
    userId: f.rootUserId,
    organizationId: f.organizationId,
    dangerouslyOverrideSignerPublicKey: f.signer,
  });
}

type ImportAccounts = Parameters<CustodyEngine["importWallet"]>[0]["parameters"]["accounts"];

async function importWallet(
  root: CustodyEngine,
  f: Fixture,
  encryptedBundle: string,
  walletName = "imported",
  accounts: ImportAccounts = [eth()],
) {
  const { activity } = await root.importWallet({
    organizationId: f.organizationId,
    parameters: { userId: f.rootUserId, walletName, encryptedBundle, accounts },
  });
  return activity.result!.importWalletResult as { walletId: string; addresses: string[] };
}

describe("import_wallet", () => {
  it("imports the BIP39 test mnemonic and derives its published BIP44/49/84/86, Ethereum, Solana and Stellar addresses", async () => {
    const f = await fixture();
    const vectors = KNOWN.filter((known) => known.mnemonic === TEST_MNEMONIC);
    const encryptedBundle = await sealWallet(f, await initWallet(f), TEST_MNEMONIC);
    // The two Solana rows name the same account (one path force-hardened), so only the first is imported.
    const accounts = vectors
      .filter((known) => known.path !== "m/44'/501'/0'/0")
      .map((known) => ({
        curve: known.curve,
        pathFormat: "PATH_FORMAT_BIP32" as const,
        path: known.path,
        addressFormat: known.addressFormat as ImportAccounts[number]["addressFormat"],
      }));
    const result = await importWallet(f.root, f, encryptedBundle, "test vectors", accounts);
    expect(result.addresses).toEqual(
      accounts.map(
        (account) => KNOWN.find((k) => k.path === account.path && k.addressFormat === account.addressFormat)?.address,
      ),
    );
    expect(result.addresses).toContain("0x9858EfFD232B4033E47d90003D41EC34EcaEda94");
    expect(result.addresses).toContain("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu");
    expect(result.addresses).toContain("bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr");
    const { wallet } = await f.root.getWallet({ organizationId: f.organizationId, walletId: result.walletId });
    expect(wallet).toMatchObject({ walletName: "test vectors", imported: true, exported: false });
  });

  it("signs with the imported key: the signature recovers to the address viem derives", async () => {
    const f = await fixture();
    const result = await importWallet(f.root, f, await sealWallet(f, await initWallet(f), TEST_MNEMONIC));
    const { activity } = await f.root.signRawPayload({
      organizationId: f.organizationId,
      parameters: {
        signWith: result.addresses[0] as string,
        payload: `0x${"11".repeat(32)}`,
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
    });
    const { r, s, v } = activity.result!.signRawPayloadResult as { r: string; s: string; v: string };
    const recovered = new secp256k1.Signature(BigInt(`0x${r}`), BigInt(`0x${s}`)).addRecoveryBit(Number(v));
    const publicKey = recovered.recoverPublicKey(Buffer.from("11".repeat(32), "hex")).toBytes(true);
    const expected = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC)).derive(ETH_PATH).publicKey as Uint8Array;
    expect(bytesToHex(publicKey)).toBe(bytesToHex(expected));
  });

  it("keeps a passphrase given after a newline, deriving the passphrase-protected seed", async () => {
    const f = await fixture();
    const result = await importWallet(f.root, f, await sealWallet(f, await initWallet(f), `${TEST_MNEMONIC}\nTREZOR`));
    const node = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC, "TREZOR")).derive(ETH_PATH);
    expect(result.addresses[0]).toBe(privateKeyToAccount(`0x${bytesToHex(node.privateKey as Uint8Array)}`).address);
  });

  it("uses an import target once: a second import with the same bundle finds none", async () => {
    const f = await fixture();
    const encryptedBundle = await sealWallet(f, await initWallet(f), TEST_MNEMONIC);
    await importWallet(f.root, f, encryptedBundle, "once");
    const error = await expectCustodyError(
      importWallet(f.root, f, encryptedBundle, "twice"),
      "FAILED_PRECONDITION",
      "parameters.encryptedBundle",
    );
    expect(error.details.reason).toBe("IMPORT_TARGET_NOT_FOUND");
  });

  it("opens only with the latest target: a newer init replaces the earlier one", async () => {
    const f = await fixture();
    const stale = await sealWallet(f, await initWallet(f), TEST_MNEMONIC);
    const fresh = await sealWallet(f, await initWallet(f), TEST_MNEMONIC);
    await expectCustodyError(importWallet(f.root, f, stale), "INVALID_ARGUMENT", "parameters.encryptedBundle");
    // The failed attempt did not consume the target.
    expect((await importWallet(f.root, f, fresh)).addresses).toEqual(["0x9858EfFD232B4033E47d90003D41EC34EcaEda94"]);
  });

  it("refuses an invalid mnemonic without quoting it, and keeps the target for a corrected try", async () => {
    const f = await fixture();
    const importBundle = await initWallet(f);
    const wrongChecksum = TEST_MNEMONIC.replace(/about$/, "abandon");
    const error = await expectCustodyError(
      importWallet(f.root, f, await sealWallet(f, importBundle, wrongChecksum)),
      "INVALID_ARGUMENT",
      "parameters.encryptedBundle",
    );
    expect(error.message).not.toContain("abandon");
    expect((await f.root.getWallets({ organizationId: f.organizationId })).wallets).toEqual([]);
    await importWallet(f.root, f, await sealWallet(f, importBundle, TEST_MNEMONIC));
  });

  it("refuses a wallet name in use and leaves the target in place", async () => {
    const f = await fixture();
    await f.root.createWallet({ organizationId: f.organizationId, parameters: { walletName: "taken", accounts: [] } });
    const encryptedBundle = await sealWallet(f, await initWallet(f), TEST_MNEMONIC);
    await expectCustodyError(
      importWallet(f.root, f, encryptedBundle, "taken"),
      "ALREADY_EXISTS",
      "parameters.walletName",
    );
    await importWallet(f.root, f, encryptedBundle, "free");
  });

  it("refuses an import for another user, at init and at import", async () => {
    const f = await fixture();
    const { activity } = await f.root.createUsers({
      organizationId: f.organizationId,
      parameters: { users: [{ userName: "bob", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] },
    });
    const [bobId] = (activity.result!.createUsersResult as { userIds: string[] }).userIds as [string];
    const error = await expectCustodyError(initWallet(f, bobId), "PERMISSION_DENIED", "parameters.userId");
    expect(error.details.reason).toBe("IMPORT_USER_MISMATCH");
    const encryptedBundle = await sealWallet(f, await initWallet(f), TEST_MNEMONIC);
    await expectCustodyError(
      f.root.importWallet({
        organizationId: f.organizationId,
        parameters: { userId: bobId, walletName: "w", encryptedBundle, accounts: [] },
      }),
      "PERMISSION_DENIED",
      "parameters.userId",
    );
  });

  it("signs its target for this organization and user only: the client refuses it for others", async () => {
    const f = await fixture();
    const importBundle = await initWallet(f);
    await expect(
      encryptWalletToBundle({
        mnemonic: TEST_MNEMONIC,
        importBundle,
        userId: f.rootUserId,
        organizationId: f.organizationId,
      }),
    ).rejects.toThrow(/expected signer key/);
    await expect(
      encryptWalletToBundle({
        mnemonic: TEST_MNEMONIC,
        importBundle,
        userId: "someone-else",
        organizationId: f.organizationId,
        dangerouslyOverrideSignerPublicKey: f.signer,
      }),
    ).rejects.toThrow(/user id does not match/);
  });

  it("never records the mnemonic in the activity or its result", async () => {
    const f = await fixture();
    const { activity } = await f.root.importWallet({
      organizationId: f.organizationId,
      parameters: {
        userId: f.rootUserId,
        walletName: "quiet",
        encryptedBundle: await sealWallet(f, await initWallet(f), TEST_MNEMONIC),
        accounts: [eth()],
      },
    });
    expect(JSON.stringify(activity)).not.toContain("abandon");
  });
});

describe("import_private_key", () => {
  function sealKey(f: Fixture, importBundle: string, privateKey: string, keyFormat: "HEXADECIMAL" | "SOLANA") {
    return encryptPrivateKeyToBundle({
      privateKey,
      keyFormat,
      importBundle,
      userId: f.rootUserId,
      organizationId: f.organizationId,
      dangerouslyOverrideSignerPublicKey: f.signer,
    });
  }

  it("imports a secp256k1 key given as hex, with its Ethereum address, marked imported", async () => {
    const f = await fixture();
    const secret = secp256k1.utils.randomSecretKey();
    const encryptedBundle = await sealKey(f, await initKey(f), `0x${bytesToHex(secret)}`, "HEXADECIMAL");
    const { activity } = await f.root.importPrivateKey({
      organizationId: f.organizationId,
      parameters: {
        userId: f.rootUserId,
        privateKeyName: "eth",
        encryptedBundle,
        curve: "CURVE_SECP256K1",
        addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
      },
    });
    const result = activity.result!.importPrivateKeyResult as {
      privateKeyId: string;
      addresses: { format: string; address: string }[];
    };
    expect(result.addresses).toEqual([
      { format: "ADDRESS_FORMAT_ETHEREUM", address: privateKeyToAccount(`0x${bytesToHex(secret)}`).address },
    ]);
    const { privateKey } = await f.root.getPrivateKey({
      organizationId: f.organizationId,
      privateKeyId: result.privateKeyId,
    });
    expect(privateKey).toMatchObject({
      imported: true,
      exported: false,
      publicKey: bytesToHex(secp256k1.getPublicKey(secret, true)),
    });
  });

  it("imports an ed25519 key given as a Solana keypair, with its Solana address", async () => {
    const f = await fixture();
    const seed = ed25519.utils.randomSecretKey();
    const publicKey = ed25519.getPublicKey(seed);
    const keypair = base58.encode(new Uint8Array([...seed, ...publicKey]));
    const encryptedBundle = await sealKey(f, await initKey(f), keypair, "SOLANA");
    const { activity } = await f.root.importPrivateKey({
      organizationId: f.organizationId,
      parameters: {
        userId: f.rootUserId,
        privateKeyName: "sol",
        encryptedBundle,
        curve: "CURVE_ED25519",
        addressFormats: ["ADDRESS_FORMAT_SOLANA"],
      },
    });
    const result = activity.result!.importPrivateKeyResult as { addresses: { address: string }[] };
    expect(result.addresses[0]?.address).toBe(base58.encode(publicKey));
  });

  it("refuses a key off the curve, a P-256 Ethereum address and a wallet target, leaving no key", async () => {
    const f = await fixture();
    const order = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
    const params = (
      encryptedBundle: string,
      curve: "CURVE_SECP256K1" | "CURVE_P256" = "CURVE_SECP256K1",
      addressFormats: "ADDRESS_FORMAT_ETHEREUM"[] = [],
    ) => ({
      organizationId: f.organizationId,
      parameters: { userId: f.rootUserId, privateKeyName: "k", encryptedBundle, curve, addressFormats },
    });
    await expectCustodyError(
      f.root.importPrivateKey(params(await sealKey(f, await initKey(f), order, "HEXADECIMAL"))),
      "INVALID_ARGUMENT",
      "parameters.encryptedBundle",
    );
    await expectCustodyError(
      f.root.importPrivateKey(params("{}", "CURVE_P256", ["ADDRESS_FORMAT_ETHEREUM"])),
      "INVALID_ARGUMENT",
      "parameters.addressFormats[0]",
    );
    // The P-256 group order is no P-256 private key.
    const p256Order = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
    await expectCustodyError(
      f.root.importPrivateKey(params(await sealKey(f, await initKey(f), p256Order, "HEXADECIMAL"), "CURVE_P256")),
      "INVALID_ARGUMENT",
      "parameters.encryptedBundle",
    );
    // A wallet's target does not open a private key's import.
    const walletTarget = await initWallet(f);
    const sealed = await sealKey(f, walletTarget, bytesToHex(secp256k1.utils.randomSecretKey()), "HEXADECIMAL");
    await expectCustodyError(f.root.importPrivateKey(params(sealed)), "INVALID_ARGUMENT", "parameters.encryptedBundle");
    expect((await f.root.getPrivateKeys({ organizationId: f.organizationId })).privateKeys).toEqual([]);
  });

  it("refuses an import with no init first", async () => {
    const f = await fixture();
    await expectCustodyError(
      f.root.importPrivateKey({
        organizationId: f.organizationId,
        parameters: {
          userId: f.rootUserId,
          privateKeyName: "k",
          encryptedBundle: "{}",
          curve: "CURVE_SECP256K1",
          addressFormats: [],
        },
      }),
      "FAILED_PRECONDITION",
      "parameters.encryptedBundle",
    );
  });
});
