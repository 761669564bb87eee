import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { base58 } from "@scure/base";
import { decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "../../../src/crypto/bytes.js";
import { enclaveQuorumPublicKey, encryptExportBundle } from "../../../src/crypto/hpke/index.js";
import { seededRandomBytes } from "./seeded-random.js";

const organizationId = "7b4e2a3c-0000-4000-8000-000000000001";
const signerPrivateKey = p256.utils.randomSecretKey(seededRandomBytes("export-signer")(48));
const signerPublicKey = enclaveQuorumPublicKey(signerPrivateKey);
const mnemonic = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

describe("encryptExportBundle", () => {
  it("exports a mnemonic that decryptExportBundle returns with returnMnemonic", async () => {
    const target = generateP256KeyPair();
    const exportBundle = await encryptExportBundle({
      plaintext: utf8ToBytes(mnemonic),
      targetPublicKey: target.publicKeyUncompressed,
      organizationId,
      signerPrivateKey,
    });
    const opened = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: true,
    });
    expect(opened).toBe(mnemonic);
  });

  it("exports a mnemonic with a newline-separated passphrase to a compressed target", async () => {
    const target = generateP256KeyPair();
    const secret = `${mnemonic}\ncorrect horse`;
    const exportBundle = await encryptExportBundle({
      plaintext: utf8ToBytes(secret),
      targetPublicKey: target.publicKey,
      organizationId,
      signerPrivateKey,
    });
    const opened = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: true,
    });
    expect(opened).toBe(secret);
  });

  it("exports a raw private key that decryptExportBundle returns as hex", async () => {
    const target = generateP256KeyPair();
    const privateKey = seededRandomBytes("raw-key")(32);
    const exportBundle = await encryptExportBundle({
      plaintext: privateKey,
      targetPublicKey: target.publicKeyUncompressed,
      organizationId,
      signerPrivateKey,
    });
    const opened = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: false,
    });
    expect(opened).toBe(bytesToHex(privateKey));
  });

  it("exports an ed25519 seed that the SOLANA key format turns into base58(seed ‖ public key)", async () => {
    const target = generateP256KeyPair();
    const seed = seededRandomBytes("solana-seed")(32);
    const exportBundle = await encryptExportBundle({
      plaintext: seed,
      targetPublicKey: target.publicKeyUncompressed,
      organizationId,
      signerPrivateKey,
    });
    const opened = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      keyFormat: "SOLANA",
      returnMnemonic: false,
    });
    const expected = new Uint8Array(64);
    expected.set(seed, 0);
    expected.set(ed25519.getPublicKey(seed), 32);
    expect(opened).toBe(base58.encode(expected));
  });

  it("signs data {encappedPublic, ciphertext, organizationId} with a 65-byte uncompressed encapsulated key", async () => {
    const target = generateP256KeyPair();
    const bundle = JSON.parse(
      await encryptExportBundle({
        plaintext: utf8ToBytes(mnemonic),
        targetPublicKey: target.publicKey,
        organizationId,
        signerPrivateKey,
      }),
    );
    const data = JSON.parse(new TextDecoder().decode(hexToBytes(bundle.data)));
    expect(Object.keys(data)).toEqual(["encappedPublic", "ciphertext", "organizationId"]);
    expect(data.organizationId).toBe(organizationId);
    expect(data.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    expect(hexToBytes(data.ciphertext).length).toBe(utf8ToBytes(mnemonic).length + 16);
    expect(bundle.enclaveQuorumPublic).toBe(signerPublicKey);
  });

  it("is refused by the client without the signer override (pinned production key)", async () => {
    const target = generateP256KeyPair();
    const exportBundle = await encryptExportBundle({
      plaintext: utf8ToBytes(mnemonic),
      targetPublicKey: target.publicKey,
      organizationId,
      signerPrivateKey,
    });
    await expect(
      decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId, returnMnemonic: true }),
    ).rejects.toThrow();
  });

  it("is refused by the client for another organizationId", async () => {
    const target = generateP256KeyPair();
    const exportBundle = await encryptExportBundle({
      plaintext: utf8ToBytes(mnemonic),
      targetPublicKey: target.publicKey,
      organizationId,
      signerPrivateKey,
    });
    await expect(
      decryptExportBundle({
        exportBundle,
        embeddedKey: target.privateKey,
        organizationId: "another-org",
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
        returnMnemonic: true,
      }),
    ).rejects.toThrow(/organization id does not match/);
  });

  it("is refused by the client when the signed data was altered", async () => {
    const target = generateP256KeyPair();
    const bundle = JSON.parse(
      await encryptExportBundle({
        plaintext: utf8ToBytes(mnemonic),
        targetPublicKey: target.publicKey,
        organizationId,
        signerPrivateKey,
      }),
    );
    const data = JSON.parse(new TextDecoder().decode(hexToBytes(bundle.data)));
    const forged = bytesToHex(utf8ToBytes(JSON.stringify({ ...data, organizationId: "forged-org" })));
    await expect(
      decryptExportBundle({
        exportBundle: JSON.stringify({ ...bundle, data: forged }),
        embeddedKey: target.privateKey,
        organizationId: "forged-org",
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
        returnMnemonic: true,
      }),
    ).rejects.toThrow();
  });

  it("does not open with another embedded key", async () => {
    const target = generateP256KeyPair();
    const exportBundle = await encryptExportBundle({
      plaintext: utf8ToBytes(mnemonic),
      targetPublicKey: target.publicKey,
      organizationId,
      signerPrivateKey,
    });
    await expect(
      decryptExportBundle({
        exportBundle,
        embeddedKey: generateP256KeyPair().privateKey,
        organizationId,
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
        returnMnemonic: true,
      }),
    ).rejects.toThrow();
  });

  it("gives the same bundle for the same injected randomness", async () => {
    const target = generateP256KeyPair();
    const make = () =>
      encryptExportBundle({
        plaintext: utf8ToBytes(mnemonic),
        targetPublicKey: target.publicKey,
        organizationId,
        signerPrivateKey,
        randomBytes: seededRandomBytes("export"),
      });
    expect(await make()).toBe(await make());
  });

  it("refuses a bad target key with INVALID_ARGUMENT naming parameters.targetPublicKey", async () => {
    const error = await encryptExportBundle({
      plaintext: utf8ToBytes(mnemonic),
      targetPublicKey: "04deadbeef",
      organizationId,
      signerPrivateKey,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(CustodyError);
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.field).toBe("parameters.targetPublicKey");
  });
});
