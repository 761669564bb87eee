import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  encodePayload,
  MAX_PAYLOAD_BYTES,
  type PayloadEncoding,
  payloadFields,
} from "../../../src/crypto/sign/index.js";
import { expectInvalid } from "./fixtures.js";

const FIELDS = payloadFields();
const HEX: PayloadEncoding = "PAYLOAD_ENCODING_HEXADECIMAL";
const UTF8: PayloadEncoding = "PAYLOAD_ENCODING_TEXT_UTF8";

function bytesOf(payload: string, encoding: PayloadEncoding) {
  const encoded = encodePayload(payload, encoding, FIELDS);
  if (encoded.kind !== "bytes") throw new Error(`expected bytes, got ${encoded.kind}`);
  return encoded.bytes;
}

describe("encodePayload", () => {
  it("decodes hex with or without 0x, in any case, to the same bytes", () => {
    const expected = Uint8Array.from([0xde, 0xad, 0xbe, 0xef]);
    for (const payload of ["deadbeef", "0xdeadbeef", "DEADBEEF", "0xDeAdBeEf", "0XDEADBEEF"]) {
      expect(bytesOf(payload, HEX)).toEqual(expected);
    }
  });

  it("round-trips any bytes through hex in any case", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.boolean(),
        fc.boolean(),
        (bytes, prefix, upper) => {
          const digits = upper ? bytesToHex(bytes).toUpperCase() : bytesToHex(bytes);
          expect(bytesOf(prefix ? `0x${digits}` : digits, HEX)).toEqual(bytes);
        },
      ),
    );
  });

  it("encodes text as its UTF-8 bytes, astral characters included", () => {
    for (const text of ["hello", "héllo ✓", "🦀 emoji", "\u0000"]) {
      expect(bytesOf(text, UTF8)).toEqual(utf8ToBytes(text));
    }
  });

  it("accepts a payload of exactly the size limit", () => {
    expect(bytesOf("ab".repeat(MAX_PAYLOAD_BYTES), HEX)).toHaveLength(MAX_PAYLOAD_BYTES);
    expect(bytesOf("a".repeat(MAX_PAYLOAD_BYTES), UTF8)).toHaveLength(MAX_PAYLOAD_BYTES);
  });

  describe("refuses, naming the payload,", () => {
    const refused: [string, string, PayloadEncoding][] = [
      ["hex with an odd number of digits", "abc", HEX],
      ["hex with an odd number of digits after 0x", "0x123", HEX],
      ["hex with a non-hex character", "zz", HEX],
      ["hex with whitespace", "de ad", HEX],
      ["hex with a sign", "-0x01", HEX],
      ["an empty hex payload", "", HEX],
      ["a bare 0x", "0x", HEX],
      ["empty text", "", UTF8],
      ["text with a lone high surrogate", "abc\uD800", UTF8],
      ["text with a lone low surrogate", "\uDC00abc", UTF8],
      ["hex one byte over the limit", "ab".repeat(MAX_PAYLOAD_BYTES + 1), HEX],
      ["0x-hex one byte over the limit", `0x${"ab".repeat(MAX_PAYLOAD_BYTES + 1)}`, HEX],
      ["text one byte over the limit", "a".repeat(MAX_PAYLOAD_BYTES + 1), UTF8],
      ["text whose UTF-8 form is over the limit though its length is not", "é".repeat(MAX_PAYLOAD_BYTES / 2 + 1), UTF8],
    ];
    for (const [name, payload, encoding] of refused) {
      it(name, () => {
        expectInvalid(() => encodePayload(payload, encoding, FIELDS), "parameters.payload");
      });
    }
  });

  it("reports the size limit in the error details", () => {
    const error = expectInvalid(
      () => encodePayload("ab".repeat(MAX_PAYLOAD_BYTES + 1), HEX, FIELDS),
      "parameters.payload",
    );
    expect(error.details.limit).toBe(MAX_PAYLOAD_BYTES);
    expect(error.message).toContain(String(MAX_PAYLOAD_BYTES));
  });

  it("refuses a payload that is not a string", () => {
    expectInvalid(() => encodePayload(42 as unknown as string, HEX, FIELDS), "parameters.payload");
  });

  it("refuses an unknown encoding, naming the encoding", () => {
    for (const encoding of ["PAYLOAD_ENCODING_BASE64", "payload_encoding_hexadecimal", "", undefined]) {
      expectInvalid(() => encodePayload("abcd", encoding as PayloadEncoding, FIELDS), "parameters.encoding");
    }
  });

  it("names the element of a batch and a custom parameters path", () => {
    expectInvalid(() => encodePayload("xyz", HEX, payloadFields("parameters", 3)), "parameters.payloads[3]");
    expectInvalid(
      () => encodePayload("xyz", HEX, payloadFields("intent.signRawPayloadIntentV2")),
      "intent.signRawPayloadIntentV2.payload",
    );
  });
});
