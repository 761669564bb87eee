/**
 * Export in-process: bundles signed by the engine's signer that `@turnkey/crypto`'s `decryptExportBundle`
 * opens only with that signer's key pinned, the `exported` marks, the signer key's life cycle, and refusals.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { Keypair } from "@solana/web3.js";
import { decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { CustodyEngine, MemoryStore } from "../../src/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

const ETH_PATH = "m/44'/60'/0'/0/0";
const SOL_PATH = "m/44'/501'/0'/0'";

async function fixture() {
  const base = await engineWithOrganization();
  const { root, organizationId } = base;
  const { activity } = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "hot",
      accounts: [
        {
          curve: "CURVE_SECP256K1",
          pathFormat: "PATH_FORMAT_BIP32",
          path: ETH_PATH,
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        },
        {
          curve: "CURVE_ED25519",
          pathFormat: "PATH_FORMAT_BIP32",
          path: SOL_PATH,
          addressFormat: "ADDRESS_FORMAT_SOLANA",
        },
      ],
    },
  });
  const wallet = activity.result!.createWalletResult as { walletId: string; addresses: [string, string] };
  return { ...base, wallet, signer: await base.engine.signerPublicKey() };
}

/** Opens a key's export bundle as a client does, with the engine's signer key pinned. */
function openKeyExport(
  exportBundle: string,
  target: ReturnType<typeof generateP256KeyPair>,
  expected: { organizationId: string; signer: string; keyFormat?: "SOLANA" | undefined },
): Promise<string> {
  return decryptExportBundle({
    exportBundle,
    embeddedKey: target.privateKey,
    organizationId: expected.organizationId,
    dangerouslyOverrideSignerPublicKey: expected.signer,
    returnMnemonic: false,
    ...(expected.keyFormat ? { keyFormat: expected.keyFormat } : {}),
  });
}

describe("export_wallet", () => {
  it("exports the mnemonic to the target key, signed by the engine's signer, and marks the wallet exported", async () => {
    const { root, organizationId, wallet, signer } = await fixture();
    const target = generateP256KeyPair();
    const { activity } = await root.exportWallet({
      organizationId,
      parameters: { walletId: wallet.walletId, targetPublicKey: target.publicKeyUncompressed },
    });
    const result = activity.result!.exportWalletResult as { walletId: string; exportBundle: string };
    expect(result.walletId).toBe(wallet.walletId);
    expect(JSON.parse(result.exportBundle).enclaveQuorumPublic).toBe(signer);
    const mnemonic = await decryptExportBundle({
      exportBundle: result.exportBundle,
      embeddedKey: target.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signer,
      returnMnemonic: true,
    });
    expect(mnemonic.split(" ")).toHaveLength(12);
    expect(mnemonicToAccount(mnemonic, { path: ETH_PATH }).address).toBe(wallet.addresses[0]);
    expect((await root.getWallet({ organizationId, walletId: wallet.walletId })).wallet.exported).toBe(true);
  });

  it("produces a bundle that decryptExportBundle refuses without the signer override, or for another organization", async () => {
    const { root, organizationId, wallet, signer } = await fixture();
    const target = generateP256KeyPair();
    const { activity } = await root.exportWallet({
      organizationId,
      parameters: { walletId: wallet.walletId, targetPublicKey: target.publicKey },
    });
    const { exportBundle } = activity.result!.exportWalletResult as { exportBundle: string };
    await expect(
      decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId, returnMnemonic: true }),
    ).rejects.toThrow(/expected signer key/);
    await expect(
      decryptExportBundle({
        exportBundle,
        embeddedKey: target.privateKey,
        organizationId: "another-organization",
        dangerouslyOverrideSignerPublicKey: signer,
        returnMnemonic: true,
      }),
    ).rejects.toThrow(/organization id does not match/);
  });

  it("accepts English and refuses another mnemonic language without marking the wallet", async () => {
    const { root, organizationId, wallet } = await fixture();
    const targetPublicKey = generateP256KeyPair().publicKey;
    const error = await expectCustodyError(
      root.exportWallet({
        organizationId,
        parameters: { walletId: wallet.walletId, targetPublicKey, language: "MNEMONIC_LANGUAGE_FRENCH" },
      }),
      "INVALID_ARGUMENT",
      "parameters.language",
    );
    expect(error.details.reason).toBe("MNEMONIC_LANGUAGE_UNSUPPORTED");
    expect((await root.getWallet({ organizationId, walletId: wallet.walletId })).wallet.exported).toBe(false);
    await root.exportWallet({
      organizationId,
      parameters: { walletId: wallet.walletId, targetPublicKey, language: "MNEMONIC_LANGUAGE_ENGLISH" },
    });
    expect((await root.getWallet({ organizationId, walletId: wallet.walletId })).wallet.exported).toBe(true);
  });

  it("refuses an unknown wallet and a bad target key, leaving the wallet unexported", async () => {
    const { root, organizationId, wallet } = await fixture();
    await expectCustodyError(
      root.exportWallet({
        organizationId,
        parameters: { walletId: "nope", targetPublicKey: generateP256KeyPair().publicKey },
      }),
      "NOT_FOUND",
      "parameters.walletId",
    );
    await expectCustodyError(
      root.exportWallet({ organizationId, parameters: { walletId: wallet.walletId, targetPublicKey: "04abcd" } }),
      "INVALID_ARGUMENT",
      "parameters.targetPublicKey",
    );
    expect((await root.getWallet({ organizationId, walletId: wallet.walletId })).wallet.exported).toBe(false);
  });
});

describe("export_wallet_account", () => {
  it("exports one account's private key (secp256k1 scalar, ed25519 seed) and marks only that account", async () => {
    const { root, organizationId, wallet, signer } = await fixture();
    const [ethAddress, solAddress] = wallet.addresses;
    const exportKey = async (address: string, keyFormat?: "SOLANA") => {
      const target = generateP256KeyPair();
      const { activity } = await root.exportWalletAccount({
        organizationId,
        parameters: { address, targetPublicKey: target.publicKey },
      });
      const result = activity.result!.exportWalletAccountResult as { address: string; exportBundle: string };
      expect(result.address).toBe(address);
      return openKeyExport(result.exportBundle, target, { organizationId, signer, keyFormat });
    };
    expect(privateKeyToAccount(`0x${await exportKey(ethAddress)}`).address).toBe(ethAddress);
    const solanaKeypair = await exportKey(solAddress, "SOLANA");
    expect(Keypair.fromSecretKey(base58.decode(solanaKeypair)).publicKey.toBase58()).toBe(solAddress);
    expect((await root.getWallet({ organizationId, walletId: wallet.walletId })).wallet.exported).toBe(false);
  });

  it("refuses an address that is not a wallet account of the organization", async () => {
    const { root, organizationId } = await fixture();
    await expectCustodyError(
      root.exportWalletAccount({
        organizationId,
        parameters: {
          address: "0x0000000000000000000000000000000000000001",
          targetPublicKey: generateP256KeyPair().publicKey,
        },
      }),
      "NOT_FOUND",
      "parameters.address",
    );
  });
});

describe("export_private_key", () => {
  it("exports the raw key, readable as hex or (ed25519) as a Solana keypair, and marks the key exported", async () => {
    const { root, organizationId, signer } = await fixture();
    const { activity } = await root.createPrivateKeys({
      organizationId,
      parameters: {
        privateKeys: [
          {
            privateKeyName: "k1",
            curve: "CURVE_SECP256K1",
            privateKeyTags: [],
            addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
          },
          {
            privateKeyName: "s1",
            curve: "CURVE_ED25519",
            privateKeyTags: [],
            addressFormats: ["ADDRESS_FORMAT_SOLANA"],
          },
        ],
      },
    });
    const [k1, s1] = (
      activity.result!.createPrivateKeysResultV2 as {
        privateKeys: { privateKeyId: string; addresses: { address: string }[] }[];
      }
    ).privateKeys as [
      { privateKeyId: string; addresses: { address: string }[] },
      { privateKeyId: string; addresses: { address: string }[] },
    ];
    const exportKey = async (privateKeyId: string, keyFormat?: "SOLANA") => {
      const target = generateP256KeyPair();
      const { activity: exported } = await root.exportPrivateKey({
        organizationId,
        parameters: { privateKeyId, targetPublicKey: target.publicKeyUncompressed },
      });
      const result = exported.result!.exportPrivateKeyResult as { privateKeyId: string; exportBundle: string };
      expect(result.privateKeyId).toBe(privateKeyId);
      return openKeyExport(result.exportBundle, target, { organizationId, signer, keyFormat });
    };
    const secpHex = await exportKey(k1.privateKeyId);
    const { privateKey: stored } = await root.getPrivateKey({ organizationId, privateKeyId: k1.privateKeyId });
    expect(bytesToHex(secp256k1.getPublicKey(Buffer.from(secpHex, "hex"), true))).toBe(stored.publicKey);
    expect(privateKeyToAccount(`0x${secpHex}`).address).toBe(k1.addresses[0]?.address);
    const edHex = await exportKey(s1.privateKeyId);
    expect(bytesToHex(ed25519.getPublicKey(Buffer.from(edHex, "hex")))).toBe(
      (await root.getPrivateKey({ organizationId, privateKeyId: s1.privateKeyId })).privateKey.publicKey,
    );
    const keypair = Keypair.fromSecretKey(base58.decode(await exportKey(s1.privateKeyId, "SOLANA")));
    expect(keypair.publicKey.toBase58()).toBe(s1.addresses[0]?.address);
    expect(stored.exported).toBe(true);
  });

  it("refuses an unknown private key", async () => {
    const { root, organizationId } = await fixture();
    await expectCustodyError(
      root.exportPrivateKey({
        organizationId,
        parameters: { privateKeyId: "nope", targetPublicKey: generateP256KeyPair().publicKey },
      }),
      "NOT_FOUND",
      "parameters.privateKeyId",
    );
  });
});

describe("the engine's bundle signer", () => {
  it("is generated once, kept sealed in the store, and the same when the store is opened again", async () => {
    const store = new MemoryStore();
    const keyEncryptionKey = new Uint8Array(32).fill(7);
    const first = await new CustodyEngine({ store, keyEncryptionKey }).signerPublicKey();
    expect(first).toMatch(/^04[0-9a-f]{128}$/);
    expect(await new CustodyEngine({ store, keyEncryptionKey }).signerPublicKey()).toBe(first);
    const stored = await store.read((reader) => reader.get("meta", "enclave.signerKey"));
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored)).not.toMatch(/[0-9a-f]{64}/);
  });

  it("is the host's key when the signerPrivateKey option is given", async () => {
    const key = p256.utils.randomSecretKey();
    const engine = new CustodyEngine({ signerPrivateKey: key });
    expect(await engine.signerPublicKey()).toBe(bytesToHex(p256.getPublicKey(key, false)));
  });

  it("refuses a signerPrivateKey that is not a P-256 private key, naming the option", () => {
    expect(() => new CustodyEngine({ signerPrivateKey: new Uint8Array(31) })).toThrow(
      expect.objectContaining({
        code: "INVALID_ARGUMENT",
        details: expect.objectContaining({ field: "signerPrivateKey" }),
      }),
    );
  });
});
