import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { compressRawPublicKey, generateP256KeyPair, toDerSignature, verifyStampSignature } from "@turnkey/crypto";
import { WalletStamper, WalletType } from "@turnkey/wallet-stamper";
import { hashMessage, recoverPublicKey } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes, utf8ToBytes } from "../../../src/crypto/bytes.js";
import {
  type ApiKeySignatureInput,
  parseApiKeyStamp,
  verifyApiKeySignature,
  verifyApiKeySignatureOffThread,
} from "../../../src/crypto/stamp/index.js";

/** Request bodies shaped like the clients' (compact JSON), some with multi-byte UTF-8. */
function bodyOf(index: number): string {
  return JSON.stringify({
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    timestampMs: String(1_700_000_000_000 + index),
    organizationId: `org-${index}`,
    parameters: { walletName: index % 3 === 0 ? `wallet ${index} — 財布 🔑` : `wallet ${index}`, accounts: [] },
  });
}

/** Every input checked below with its answer: the off-thread check must give each the same one (last test). */
const answered: { input: ApiKeySignatureInput; valid: boolean }[] = [];

function verifies(stamp: Omit<ApiKeySignatureInput, "body">, body: string | Uint8Array): boolean {
  const input = { ...stamp, body: typeof body === "string" ? utf8ToBytes(body) : body };
  const valid = verifyApiKeySignature(input);
  answered.push({ input, valid });
  return valid;
}

function tampered(body: string): string {
  return body.replace("org-", "orG-");
}

const P256 = "SIGNATURE_SCHEME_TK_API_P256";
const SECP256K1 = "SIGNATURE_SCHEME_TK_API_SECP256K1";
const EIP191 = "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191";
const ED25519 = "SIGNATURE_SCHEME_TK_API_ED25519";

describe("verifyApiKeySignature, P-256 stamps from the official ApiKeyStamper", () => {
  for (const runtimeOverride of ["node", "purejs"] as const) {
    it(`verifies hundreds of ${runtimeOverride} stamps, high-S included, and agrees with @turnkey/crypto`, async () => {
      const keys = generateP256KeyPair();
      const stamper = new ApiKeyStamper({
        apiPublicKey: keys.publicKey,
        apiPrivateKey: keys.privateKey,
        runtimeOverride,
      });
      let highS = 0;
      const count = 250;
      for (let i = 0; i < count; i++) {
        const body = bodyOf(i);
        const stamp = parseApiKeyStamp((await stamper.stamp(body)).stampHeaderValue);
        expect(stamp.scheme).toBe(P256);
        expect(verifies(stamp, body)).toBe(true);
        expect(verifies(stamp, tampered(body))).toBe(false);
        if (p256.Signature.fromBytes(hexToBytes(stamp.signature), "der").hasHighS()) highS++;
        // @turnkey/crypto's pure-JS check is slow; a sample is enough to show the two agree.
        if (i % 10 === 0) {
          expect(await verifyStampSignature(stamp.publicKey, stamp.signature, body)).toBe(true);
          expect(await verifyStampSignature(stamp.publicKey, stamp.signature, tampered(body))).toBe(false);
        }
      }
      expect(highS).toBeGreaterThan(0);
      expect(highS).toBeLessThan(count);
    });
  }

  it("refuses a stamp verified against another key, or under another scheme", async () => {
    const keys = generateP256KeyPair();
    const other = generateP256KeyPair();
    const stamper = new ApiKeyStamper({ apiPublicKey: keys.publicKey, apiPrivateKey: keys.privateKey });
    const body = bodyOf(1);
    const stamp = parseApiKeyStamp((await stamper.stamp(body)).stampHeaderValue);
    expect(verifies({ ...stamp, publicKey: other.publicKey }, body)).toBe(false);
    for (const scheme of [SECP256K1, EIP191, ED25519, "SIGNATURE_SCHEME_TK_WEBAUTHN"]) {
      expect(verifies({ ...stamp, scheme }, body)).toBe(false);
    }
  });

  it("refuses the uncompressed form of the signing key (stamps carry the compressed one)", async () => {
    const keys = generateP256KeyPair();
    const stamper = new ApiKeyStamper({ apiPublicKey: keys.publicKey, apiPrivateKey: keys.privateKey });
    const body = bodyOf(2);
    const stamp = parseApiKeyStamp((await stamper.stamp(body)).stampHeaderValue);
    expect(verifies({ ...stamp, publicKey: keys.publicKeyUncompressed }, body)).toBe(false);
  });
});

describe("verifyApiKeySignature, secp256k1 stamps", () => {
  const secretKey = secp256k1.utils.randomSecretKey();
  const publicKey = bytesToHex(secp256k1.getPublicKey(secretKey, true));

  it("verifies DER signatures over SHA-256(body), high-S included", () => {
    let highS = 0;
    for (let i = 0; i < 100; i++) {
      const body = bodyOf(i);
      const signature = secp256k1.sign(sha256(utf8ToBytes(body)), secretKey, {
        prehash: false,
        lowS: false,
        format: "der",
      });
      if (secp256k1.Signature.fromBytes(signature, "der").hasHighS()) highS++;
      const stamp = { publicKey, scheme: SECP256K1, signature: bytesToHex(signature) };
      expect(verifies(stamp, body)).toBe(true);
      expect(verifies(stamp, tampered(body))).toBe(false);
    }
    expect(highS).toBeGreaterThan(0);
  });

  it("refuses a signature over the body itself rather than its digest, another key, or the P-256 scheme", () => {
    const body = bodyOf(7);
    const overBody = secp256k1.sign(keccak_256(utf8ToBytes(body)), secretKey, { prehash: false, format: "der" });
    expect(verifies({ publicKey, scheme: SECP256K1, signature: bytesToHex(overBody) }, body)).toBe(false);
    const good = bytesToHex(secp256k1.sign(utf8ToBytes(body), secretKey, { format: "der" }));
    const otherKey = bytesToHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true));
    expect(verifies({ publicKey, scheme: SECP256K1, signature: good }, body)).toBe(true);
    expect(verifies({ publicKey: otherKey, scheme: SECP256K1, signature: good }, body)).toBe(false);
    expect(verifies({ publicKey, scheme: P256, signature: good }, body)).toBe(false);
    expect(verifies({ publicKey, scheme: ED25519, signature: good }, body)).toBe(false);
  });
});

describe("verifyApiKeySignature, EIP-191 stamps from Ethereum wallets", () => {
  const privateKey = `0x${"4c".repeat(32)}` as const;
  const account = privateKeyToAccount(privateKey);
  const compressedKey = bytesToHex(compressRawPublicKey(hexToBytes(account.publicKey.slice(2))));

  /** What wallet-stamper does with a wallet's `personal_sign` result: recover and compress the key, DER (r, s). */
  async function walletStamp(body: string) {
    const signature = await account.signMessage({ message: body });
    const recovered = await recoverPublicKey({ hash: hashMessage(body), signature });
    return {
      publicKey: bytesToHex(compressRawPublicKey(hexToBytes(recovered.slice(2)))),
      scheme: EIP191,
      signature: toDerSignature(signature.slice(2)),
    };
  }

  it("verifies viem signMessage signatures converted as wallet-stamper converts them", async () => {
    for (let i = 0; i < 60; i++) {
      const body = bodyOf(i);
      const stamp = await walletStamp(body);
      expect(stamp.publicKey).toBe(compressedKey);
      expect(verifies(stamp, body)).toBe(true);
      expect(verifies(stamp, tampered(body))).toBe(false);
      expect(verifies({ ...stamp, scheme: SECP256K1 }, body)).toBe(false);
    }
  });

  it("accepts the zero-padded DER that toDerSignature writes when r or s has a leading zero byte", async () => {
    // A 32-byte INTEGER starting 00 then a byte below 0x80 is not minimal DER, so noble's strict reader refuses it.
    const isMinimalDer = (hex: string) => {
      try {
        secp256k1.Signature.fromBytes(hexToBytes(hex), "der");
        return true;
      } catch {
        return false;
      }
    };
    let padded: { stamp: Awaited<ReturnType<typeof walletStamp>>; body: string } | undefined;
    for (let i = 0; padded === undefined && i < 5000; i++) {
      const body = bodyOf(i);
      const stamp = await walletStamp(body);
      if (!isMinimalDer(stamp.signature)) padded = { stamp, body };
    }
    if (padded === undefined) throw new Error("no zero-padded signature among 5000 deterministic signatures");
    expect(verifies(padded.stamp, padded.body)).toBe(true);
    expect(verifies(padded.stamp, tampered(padded.body))).toBe(false);
  });

  it("uses the UTF-8 byte length of the body in the EIP-191 prefix", async () => {
    const body = bodyOf(3);
    expect(utf8ToBytes(body).length).not.toBe(body.length);
    const stamp = await walletStamp(body);
    expect(verifies(stamp, body)).toBe(true);
  });

  it("verifies stamps from the official WalletStamper with an Ethereum wallet", async () => {
    const stamper = new WalletStamper({
      type: WalletType.Ethereum,
      signMessage: (message: string) => account.signMessage({ message }),
      getPublicKey: async () => compressedKey,
    });
    const body = bodyOf(9);
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
    expect(stampHeaderName).toBe("X-Stamp");
    const stamp = parseApiKeyStamp(stampHeaderValue);
    expect(stamp).toMatchObject({ publicKey: compressedKey, scheme: EIP191 });
    expect(verifies(stamp, body)).toBe(true);
    expect(verifies(stamp, tampered(body))).toBe(false);
  });

  it("accepts a high-S (r, s) for the wallet key", async () => {
    const body = bodyOf(4);
    const digest = hashMessage(body, "bytes");
    const low = secp256k1.Signature.fromBytes(
      secp256k1.sign(digest, hexToBytes(privateKey.slice(2)), { prehash: false }),
      "compact",
    );
    const high = new secp256k1.Signature(low.r, secp256k1.Point.Fn.ORDER - low.s);
    expect(high.hasHighS()).toBe(true);
    expect(verifies({ publicKey: compressedKey, scheme: EIP191, signature: high.toHex("der") }, body)).toBe(true);
  });
});

describe("verifyApiKeySignature, Ed25519 stamps", () => {
  const secretKey = ed25519.utils.randomSecretKey();
  const publicKey = bytesToHex(ed25519.getPublicKey(secretKey));

  it("verifies a signature over the raw body (JS wallet-stamper, Solana wallets)", () => {
    const body = bodyOf(0);
    const signature = bytesToHex(ed25519.sign(utf8ToBytes(body), secretKey));
    expect(verifies({ publicKey, scheme: ED25519, signature }, body)).toBe(true);
    expect(verifies({ publicKey, scheme: ED25519, signature }, tampered(body))).toBe(false);
  });

  it("verifies a signature over SHA-256(body) (Go SDK)", () => {
    const body = bodyOf(1);
    const signature = bytesToHex(ed25519.sign(sha256(utf8ToBytes(body)), secretKey));
    expect(verifies({ publicKey, scheme: ED25519, signature }, body)).toBe(true);
    expect(verifies({ publicKey, scheme: ED25519, signature }, tampered(body))).toBe(false);
  });

  it("refuses a signature over another digest of the body, another key, or a secp256k1 scheme", () => {
    const body = bodyOf(2);
    const overKeccak = bytesToHex(ed25519.sign(keccak_256(utf8ToBytes(body)), secretKey));
    expect(verifies({ publicKey, scheme: ED25519, signature: overKeccak }, body)).toBe(false);
    const good = bytesToHex(ed25519.sign(utf8ToBytes(body), secretKey));
    const otherKey = bytesToHex(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
    expect(verifies({ publicKey: otherKey, scheme: ED25519, signature: good }, body)).toBe(false);
    expect(verifies({ publicKey, scheme: SECP256K1, signature: good }, body)).toBe(false);
  });

  it("verifies stamps from the official WalletStamper with a Solana wallet", async () => {
    const stamper = new WalletStamper({
      type: WalletType.Solana,
      signMessage: async (message: string) => bytesToHex(ed25519.sign(utf8ToBytes(message), secretKey)),
      getPublicKey: async () => publicKey,
    });
    const body = bodyOf(5);
    const stamp = parseApiKeyStamp((await stamper.stamp(body)).stampHeaderValue);
    expect(stamp).toMatchObject({ publicKey, scheme: ED25519 });
    expect(verifies(stamp, body)).toBe(true);
    expect(verifies(stamp, tampered(body))).toBe(false);
  });
});

describe("verifyApiKeySignature, malformed members", () => {
  const keys = generateP256KeyPair();
  const body = bodyOf(0);

  it.each<[string, Partial<ApiKeySignatureInput>]>([
    ["a non-hex signature", { signature: "30zz" }],
    ["an odd-length signature", { signature: "3044022" }],
    ["an empty signature", { signature: "" }],
    ["a signature that is not DER", { signature: "ab".repeat(64) }],
    ["a DER signature with trailing bytes", { signature: `3006020101020101${"00"}` }],
    ["a non-hex public key", { publicKey: "zz" }],
    ["a truncated public key", { publicKey: keys.publicKey.slice(0, 64) }],
    ["an unknown scheme", { scheme: "SIGNATURE_SCHEME_UNKNOWN" }],
  ])("answers false for %s", (_name, override) => {
    const input = { publicKey: keys.publicKey, scheme: P256, signature: "3006020101020101", body, ...override };
    expect(verifies(input, body)).toBe(false);
  });

  it("answers false for an Ed25519 signature of the wrong length or a key of the wrong length", () => {
    const secretKey = ed25519.utils.randomSecretKey();
    const publicKey = bytesToHex(ed25519.getPublicKey(secretKey));
    const signature = bytesToHex(ed25519.sign(utf8ToBytes(body), secretKey));
    expect(verifies({ publicKey, scheme: ED25519, signature: signature.slice(0, 126) }, body)).toBe(false);
    expect(verifies({ publicKey: `${publicKey}00`, scheme: ED25519, signature }, body)).toBe(false);
  });

  it("answers false for a secp256k1 key that is not on the curve", () => {
    const signature = bytesToHex(
      secp256k1.sign(utf8ToBytes(body), secp256k1.utils.randomSecretKey(), { format: "der" }),
    );
    expect(verifies({ publicKey: `02${"ff".repeat(32)}`, scheme: SECP256K1, signature }, body)).toBe(false);
  });

  it("verifies over the exact bytes it is given, not a re-serialization", () => {
    const secretKey = secp256k1.utils.randomSecretKey();
    const publicKey = bytesToHex(secp256k1.getPublicKey(secretKey, true));
    const spaced = '{ "organizationId" : "org" }';
    const signature = bytesToHex(secp256k1.sign(utf8ToBytes(spaced), secretKey, { format: "der" }));
    expect(verifies({ publicKey, scheme: SECP256K1, signature }, spaced)).toBe(true);
    expect(verifies({ publicKey, scheme: SECP256K1, signature }, JSON.stringify(JSON.parse(spaced)))).toBe(false);
  });
});

describe("verifyApiKeySignatureOffThread", () => {
  it("gives every stamp above the answer the in-thread check gave, valid and refused, in every scheme", async () => {
    const schemes = new Set(answered.map(({ input, valid }) => `${input.scheme} ${valid}`));
    for (const scheme of [P256, SECP256K1, EIP191, ED25519]) {
      expect(schemes).toContain(`${scheme} true`);
      expect(schemes).toContain(`${scheme} false`);
    }
    const offThread = await Promise.all(answered.map(({ input }) => verifyApiKeySignatureOffThread(input)));
    expect(offThread).toEqual(answered.map(({ valid }) => valid));
  });
});
