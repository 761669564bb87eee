/**
 * P-256 private keys through the HTTP adapter with @turnkey/sdk-server and @turnkey/crypto, as Turnkey's
 * disaster-recovery and encryption-key-escrow examples use them: created with no addresses (or COMPRESSED /
 * UNCOMPRESSED), data encrypted to the key's public key with WebCrypto ECDH, the key exported to a target and
 * opened with `decryptExportBundle`, raw payloads signed and verified by node:crypto and @noble/curves, and a
 * key imported with `encryptPrivateKeyToBundle`.
 */
import { createPublicKey, verify as nodeVerify, webcrypto } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { decryptExportBundle, encryptPrivateKeyToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let rootUserId: string;
let signer: string;
let api: ReturnType<Turnkey["apiClient"]>;

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  ({ organizationId, rootUserId } = fixture);
  signer = await fixture.engine.signerPublicKey();
  server = await serve(fixture.engine);
  api = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: fixture.rootKey.publicKey,
    apiPrivateKey: fixture.rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  return promise.then(
    () => {
      throw new Error("expected the request to be refused");
    },
    (e: unknown) => e as { code: number; message: string },
  );
}

/** Creates a P-256 key as the escrow examples do and returns its id and public key. */
async function createEscrowKey(privateKeyName: string) {
  const { privateKeys } = await api.createPrivateKeys({
    privateKeys: [{ privateKeyName, curve: "CURVE_P256", addressFormats: [], privateKeyTags: [] }],
  });
  const privateKeyId = privateKeys[0]!.privateKeyId as string;
  const { privateKey } = await api.getPrivateKey({ privateKeyId });
  return { privateKeyId, publicKey: privateKey.publicKey, record: privateKey };
}

/** The private key of `privateKeyId`, exported to a fresh target and opened as the escrow example opens it. */
async function exportKey(privateKeyId: string): Promise<string> {
  const target = generateP256KeyPair();
  const { exportBundle } = await api.exportPrivateKey({ privateKeyId, targetPublicKey: target.publicKeyUncompressed });
  return decryptExportBundle({
    exportBundle,
    embeddedKey: target.privateKey,
    organizationId,
    returnMnemonic: false,
    dangerouslyOverrideSignerPublicKey: signer,
  });
}

describe("P-256 private keys", () => {
  it("creates an escrow key, encrypts to its public key with WebCrypto, exports it and decrypts", async () => {
    const { privateKeyId, publicKey, record } = await createEscrowKey("escrow");
    expect(record.curve).toBe("CURVE_P256");
    expect(record.addresses).toEqual([]);
    expect(publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(() => p256.Point.fromHex(publicKey)).not.toThrow();

    // The example's encryptWithPublicKey: ECDH with an ephemeral key against the escrow public key.
    const subtle = webcrypto.subtle;
    const escrowPublic = await subtle.importKey(
      "raw",
      hexToBytes(publicKey),
      { name: "ECDH", namedCurve: "P-256" },
      false,
      [],
    );
    const ephemeral = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const sealedSecret = new Uint8Array(
      await subtle.deriveBits({ name: "ECDH", public: escrowPublic }, ephemeral.privateKey, 256),
    );

    const exported = await exportKey(privateKeyId);
    expect(bytesToHex(p256.getPublicKey(hexToBytes(exported), true))).toBe(publicKey);
    // The exported key opens what was encrypted to the public key.
    const ephemeralPublic = new Uint8Array(await subtle.exportKey("raw", ephemeral.publicKey));
    expect(bytesToHex(p256.getSharedSecret(hexToBytes(exported), ephemeralPublic).subarray(1))).toBe(
      bytesToHex(sealedSecret),
    );
    expect((await api.getPrivateKey({ privateKeyId })).privateKey.exported).toBe(true);
  });

  it("derives COMPRESSED and UNCOMPRESSED addresses that are the key itself", async () => {
    const { privateKeys } = await api.createPrivateKeys({
      privateKeys: [
        {
          privateKeyName: "both",
          curve: "CURVE_P256",
          addressFormats: ["ADDRESS_FORMAT_COMPRESSED", "ADDRESS_FORMAT_UNCOMPRESSED"],
          privateKeyTags: [],
        },
      ],
    });
    const [compressed, uncompressed] = (privateKeys[0]!.addresses ?? []).map((a) => a.address) as [string, string];
    const point = p256.Point.fromHex(uncompressed);
    expect(point.toHex(true)).toBe(compressed);
    expect(uncompressed).toMatch(/^04[0-9a-f]{128}$/);
    const { privateKey } = await api.getPrivateKey({ privateKeyId: privateKeys[0]!.privateKeyId as string });
    expect(privateKey.publicKey).toBe(compressed);
  });

  it("signs with SHA256 and NO_OP: node:crypto and @noble/curves verify, and v recovers the key", async () => {
    const { privateKeyId, publicKey } = await createEscrowKey("signer");
    const payload = bytesToHex(new TextEncoder().encode("escrow manifest v1"));
    const keyObject = createPublicKey({
      key: { kty: "EC", crv: "P-256", ...xy(publicKey) },
      format: "jwk",
    });

    const bySha = await api.signRawPayload({
      signWith: privateKeyId,
      payload,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_SHA256",
    });
    const p1363 = Buffer.from(bySha.r + bySha.s, "hex");
    expect(nodeVerify("sha256", hexToBytes(payload), { key: keyObject, dsaEncoding: "ieee-p1363" }, p1363)).toBe(true);

    const digest = sha256(new TextEncoder().encode("a digest the caller made"));
    const { signatures } = await api.signRawPayloads({
      signWith: privateKeyId,
      payloads: [bytesToHex(digest), bytesToHex(digest)],
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(signatures).toHaveLength(2);
    for (const signature of signatures ?? []) {
      const compact = hexToBytes(signature.r + signature.s);
      expect(p256.verify(compact, digest, hexToBytes(publicKey), { prehash: false })).toBe(true);
      const recovered = p256.Signature.fromBytes(compact).addRecoveryBit(Number.parseInt(signature.v, 16));
      expect(recovered.recoverPublicKey(digest).toHex(true)).toBe(publicKey);
    }
  });

  it("imports a P-256 key sealed with encryptPrivateKeyToBundle, and signs with it", async () => {
    const secret = p256.utils.randomSecretKey();
    const { importBundle } = await api.initImportPrivateKey({ userId: rootUserId });
    const encryptedBundle = await encryptPrivateKeyToBundle({
      privateKey: bytesToHex(secret),
      keyFormat: "HEXADECIMAL",
      importBundle,
      userId: rootUserId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signer,
    });
    const { privateKeyId, addresses } = await api.importPrivateKey({
      userId: rootUserId,
      privateKeyName: "imported escrow",
      encryptedBundle,
      curve: "CURVE_P256",
      addressFormats: ["ADDRESS_FORMAT_COMPRESSED"],
    });
    expect(addresses[0]!.address).toBe(bytesToHex(p256.getPublicKey(secret, true)));
    const digest = sha256(Uint8Array.of(1, 2, 3));
    const signature = await api.signRawPayload({
      signWith: addresses[0]!.address as string,
      payload: bytesToHex(digest),
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(
      p256.verify(hexToBytes(signature.r + signature.s), digest, p256.getPublicKey(secret), { prehash: false }),
    ).toBe(true);
    expect((await api.getPrivateKey({ privateKeyId })).privateKey.imported).toBe(true);
  });

  it("refuses an Ethereum address for a P-256 key, and Ethereum encodings or other hashes when signing", async () => {
    const before = (await api.getPrivateKeys()).privateKeys.length;
    const ethereum = await refusal(
      api.createPrivateKeys({
        privateKeys: [
          {
            privateKeyName: "no",
            curve: "CURVE_P256",
            addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
            privateKeyTags: [],
          },
        ],
      }),
    );
    expect(ethereum.code).toBe(3);
    expect(ethereum.message).toContain("parameters.privateKeys[0].addressFormats[0]");
    expect((await api.getPrivateKeys()).privateKeys).toHaveLength(before);

    const { privateKeyId } = await createEscrowKey("strict");
    const digest = bytesToHex(sha256(Uint8Array.of(9)));
    const refusals = [
      { encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256", field: "hashFunction" },
      { encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NOT_APPLICABLE", field: "hashFunction" },
      { encoding: "PAYLOAD_ENCODING_EIP712", hashFunction: "HASH_FUNCTION_NO_OP", field: "encoding" },
    ] as const;
    for (const { encoding, hashFunction, field } of refusals) {
      const error = await refusal(
        api.signRawPayload({ signWith: privateKeyId, payload: digest, encoding, hashFunction }),
      );
      expect(error.code).toBe(3);
      expect(error.message).toContain(`parameters.${field}`);
    }
    const short = await refusal(
      api.signRawPayload({
        signWith: privateKeyId,
        payload: "abcd",
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      }),
    );
    expect(short.message).toContain("32-byte digest");
  });
});

/** The JWK coordinates of a compressed P-256 key. */
function xy(compressed: string): { x: string; y: string } {
  const raw = p256.Point.fromHex(compressed).toBytes(false);
  return {
    x: Buffer.from(raw.subarray(1, 33)).toString("base64url"),
    y: Buffer.from(raw.subarray(33, 65)).toString("base64url"),
  };
}
