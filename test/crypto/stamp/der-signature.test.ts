import { p256 } from "@noble/curves/nist.js";
import { toDerSignature } from "@turnkey/crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "../../../src/crypto/bytes.js";
import { derSignatureToCompact } from "../../../src/crypto/stamp/der-signature.js";

const ORDER = p256.Point.Fn.ORDER;
const scalar = fc.bigInt({ min: 1n, max: ORDER - 1n });
const smallScalar = fc.bigInt({ min: 1n, max: 2n ** 64n });

function compactOf(r: bigint, s: bigint): string {
  return r.toString(16).padStart(64, "0") + s.toString(16).padStart(64, "0");
}

describe("derSignatureToCompact", () => {
  it("reads minimal DER as noble writes it", () => {
    fc.assert(
      fc.property(fc.oneof(scalar, smallScalar), fc.oneof(scalar, smallScalar), (r, s) => {
        const der = new p256.Signature(r, s).toBytes("der");
        expect(bytesToHex(derSignatureToCompact(der) as Uint8Array)).toBe(compactOf(r, s));
      }),
    );
  });

  it("reads the zero-padded DER @turnkey/crypto's toDerSignature writes", () => {
    fc.assert(
      fc.property(fc.oneof(scalar, smallScalar), fc.oneof(scalar, smallScalar), (r, s) => {
        const der = hexToBytes(toDerSignature(compactOf(r, s)));
        expect(bytesToHex(derSignatureToCompact(der) as Uint8Array)).toBe(compactOf(r, s));
      }),
    );
  });

  it.each([
    ["empty", ""],
    ["a SET instead of a SEQUENCE", "3106020101020101"],
    ["a sequence length past the end", "3007020101020101"],
    ["trailing bytes", "300602010102010100"],
    ["a long-form length", "308106020101020101"],
    ["an r that is not an INTEGER", "3006040101020101"],
    ["a zero-length r", "30050200020101"],
    ["a negative r", "3006020181020101"],
    ["an s running past the sequence", "3006020101020201"],
    ["an r of 33 significant bytes", `302602${"21"}01${"00".repeat(32)}020101`],
  ])("refuses %s", (_name, hex) => {
    expect(derSignatureToCompact(hexToBytes(hex))).toBeUndefined();
  });

  it("refuses random bytes without throwing", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const compact = derSignatureToCompact(bytes);
        expect(compact === undefined || compact.length === 64).toBe(true);
      }),
    );
  });
});
