import { encode } from "cborg";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCbor, decodeFirstCbor } from "../../../src/crypto/webauthn/cbor.js";
import { WebauthnRefusal } from "../../../src/crypto/webauthn/refusal.js";

// Values shaped like COSE keys and extension maps: integer and text keys, byte strings, nested maps.
const leaf = fc.oneof(fc.integer(), fc.string(), fc.uint8Array({ maxLength: 300 }), fc.boolean());
const value = fc.letrec((tie) => ({
  item: fc.oneof({ depthSize: "small" }, leaf, tie("map"), fc.array(tie("item"), { maxLength: 4 })),
  map: fc
    .array(fc.tuple(fc.oneof(fc.integer({ min: -300, max: 300 }), fc.string({ maxLength: 12 })), tie("item")), {
      maxLength: 6,
    })
    .map((entries) => new Map(entries)),
})).item;

describe("decodeFirstCbor", () => {
  it("finds the exact length of the first item whatever follows it", () => {
    fc.assert(
      fc.property(value, fc.option(value, { nil: undefined }), (first, second) => {
        const head = new Uint8Array(encode(first));
        const tail = second === undefined ? new Uint8Array() : new Uint8Array(encode(second));
        const bytes = new Uint8Array(head.length + tail.length);
        bytes.set(head);
        bytes.set(tail, head.length);
        expect(decodeFirstCbor(bytes, "MALFORMED_AUTHENTICATOR_DATA", "item").length).toBe(head.length);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a first item that is not in canonical form", () => {
    // The map {1: 2} with its value written in two bytes (18 02) where one (02) is canonical, then {}.
    const nonCanonical = Uint8Array.of(0xa1, 0x01, 0x18, 0x02, 0xa0);
    expect(() => decodeFirstCbor(nonCanonical, "MALFORMED_PUBLIC_KEY", "key")).toThrow(/canonical/);
    expect(decodeFirstCbor(Uint8Array.of(0xa1, 0x01, 0x02, 0xa0), "MALFORMED_PUBLIC_KEY", "key").length).toBe(3);
  });

  it("refuses bytes whose first item is truncated or malformed", () => {
    const bytes = new Uint8Array(encode(new Map([[-2, new Uint8Array(32)]])));
    expect(() => decodeFirstCbor(bytes.subarray(0, bytes.length - 1), "MALFORMED_PUBLIC_KEY", "key")).toThrow(
      /not well-formed CBOR/,
    );
    expect(() => decodeFirstCbor(Uint8Array.of(0xff), "MALFORMED_PUBLIC_KEY", "key")).toThrow(/not well-formed CBOR/);
    expect(() => decodeFirstCbor(new Uint8Array(), "MALFORMED_PUBLIC_KEY", "key")).toThrow(/not well-formed CBOR/);
  });

  it.each([
    ["a map with a repeated key", Uint8Array.of(0xa2, 0x01, 0x02, 0x01, 0x03)],
    ["a tagged item", Uint8Array.of(0xc2, 0x41, 0x01)],
    ["an indefinite-length map", Uint8Array.of(0xbf, 0x01, 0x02, 0xff)],
    ["undefined", Uint8Array.of(0xa1, 0x01, 0xf7)],
  ])("refuses %s, which WebAuthn data never holds", (_name, bytes) => {
    expect(() => decodeFirstCbor(bytes, "MALFORMED_PUBLIC_KEY", "key")).toThrow(WebauthnRefusal);
    expect(() => decodeCbor(bytes, "MALFORMED_ATTESTATION", "the attestation object")).toThrow(WebauthnRefusal);
  });
});
