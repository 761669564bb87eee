import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { Address } from "@ton/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveAddress, normalizeAddressForLookup } from "../../../src/crypto/addresses/index.js";

const secret = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((s) => secp256k1.utils.isValidSecretKey(s));
const flipCase = (s: string) =>
  s.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

describe("normalizeAddressForLookup", () => {
  it("maps every casing of an Ethereum address to one key (property)", () => {
    fc.assert(
      fc.property(secret, (bytes) => {
        const address = deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_ETHEREUM", secp256k1.getPublicKey(bytes));
        const key = normalizeAddressForLookup(address);
        expect(key).toBe(address.toLowerCase());
        expect(normalizeAddressForLookup(address.toLowerCase())).toBe(key);
        expect(normalizeAddressForLookup(`0X${address.slice(2).toUpperCase()}`)).toBe(key);
      }),
      { numRuns: 30 },
    );
  });

  it("maps every casing of COMPRESSED and UNCOMPRESSED hex to one key", () => {
    const publicKey = secp256k1.getPublicKey(Uint8Array.from({ length: 32 }, (_, i) => i + 7));
    for (const format of ["ADDRESS_FORMAT_COMPRESSED", "ADDRESS_FORMAT_UNCOMPRESSED"] as const) {
      const address = deriveAddress("CURVE_SECP256K1", format, publicKey);
      expect(normalizeAddressForLookup(address.toUpperCase())).toBe(address);
    }
    const ed = deriveAddress("CURVE_ED25519", "ADDRESS_FORMAT_COMPRESSED", ed25519.getPublicKey(new Uint8Array(32)));
    expect(normalizeAddressForLookup(ed.toUpperCase())).toBe(ed);
  });

  it("maps every form of a TON account to its raw form (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const address = deriveAddress("CURVE_ED25519", "ADDRESS_FORMAT_TON_V4R2", ed25519.getPublicKey(bytes));
        const parsed = Address.parse(address);
        const key = normalizeAddressForLookup(address);
        expect(key).toBe(parsed.toRawString());
        for (const bounceable of [true, false]) {
          for (const testOnly of [true, false]) {
            for (const urlSafe of [true, false]) {
              expect(normalizeAddressForLookup(parsed.toString({ bounceable, testOnly, urlSafe }))).toBe(key);
            }
          }
        }
        expect(normalizeAddressForLookup(parsed.toRawString().toUpperCase().replace("0X", "0x"))).toBe(key);
      }),
      { numRuns: 20 },
    );
  });

  it("keeps case-sensitive encodings exact", () => {
    const ed = ed25519.getPublicKey(Uint8Array.from({ length: 32 }, (_, i) => 255 - i));
    const secp = secp256k1.getPublicKey(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
    const exact = [
      deriveAddress("CURVE_ED25519", "ADDRESS_FORMAT_SOLANA", ed),
      deriveAddress("CURVE_ED25519", "ADDRESS_FORMAT_XLM", ed),
      deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_TRON", secp),
      deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_XRP", secp),
      deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH", secp),
      deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH", secp),
      deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_COSMOS", secp),
    ];
    for (const address of exact) {
      expect(normalizeAddressForLookup(address)).toBe(address);
      expect(normalizeAddressForLookup(flipCase(address))).not.toBe(normalizeAddressForLookup(address));
    }
  });

  it("does not fold the case of a base58 string that happens to look like hex", () => {
    expect(normalizeAddressForLookup("1111abcDEF")).toBe("1111abcDEF");
  });
});
