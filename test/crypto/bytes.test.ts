import { bytesToHex as nobleBytesToHex } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToHex } from "../../src/crypto/bytes.js";

describe("bytesToHex", () => {
  it("prints what noble's bytesToHex prints, for views anywhere in a larger buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(16), fc.nat(16), (bytes, before, after) => {
        const backing = new Uint8Array(before + bytes.length + after).fill(0xee);
        backing.set(bytes, before);
        const view = backing.subarray(before, before + bytes.length);
        expect(bytesToHex(view)).toBe(nobleBytesToHex(bytes));
      }),
    );
  });

  it("prints an empty array as the empty string, and lowercase digits", () => {
    expect(bytesToHex(new Uint8Array())).toBe("");
    expect(bytesToHex(Uint8Array.of(0x00, 0x0f, 0xab, 0xff))).toBe("000fabff");
  });
});
