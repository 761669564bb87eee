import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { encodeBase64Url, utf8ToBytes } from "../../../src/crypto/bytes.js";
import { parseApiKeyStamp } from "../../../src/crypto/stamp/index.js";

const MEMBERS = {
  publicKey: "02a1b2c3",
  scheme: "SIGNATURE_SCHEME_TK_API_P256",
  signature: "3044",
};

function header(json: string, padded = false): string {
  const encoded = encodeBase64Url(utf8ToBytes(json));
  return padded ? encoded.padEnd(Math.ceil(encoded.length / 4) * 4, "=") : encoded;
}

function refusalOf(value: string): CustodyError {
  try {
    parseApiKeyStamp(value);
  } catch (error) {
    if (error instanceof CustodyError) return error;
    throw error;
  }
  throw new Error("expected parseApiKeyStamp to refuse");
}

describe("parseApiKeyStamp", () => {
  it("reads the header the official ApiKeyStamper produces", async () => {
    const keys = generateP256KeyPair();
    const stamper = new ApiKeyStamper({ apiPublicKey: keys.publicKey, apiPrivateKey: keys.privateKey });
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp('{"organizationId":"org"}');
    expect(stampHeaderName).toBe("X-Stamp");
    const stamp = parseApiKeyStamp(stampHeaderValue);
    expect(stamp.publicKey).toBe(keys.publicKey);
    expect(stamp.scheme).toBe("SIGNATURE_SCHEME_TK_API_P256");
    expect(stamp.signature).toMatch(/^30[0-9a-f]+$/);
  });

  it("accepts padded base64url", () => {
    const json = JSON.stringify({ ...MEMBERS, publicKey: "02ab" });
    expect(header(json, true)).toContain("=");
    expect(parseApiKeyStamp(header(json, true))).toEqual({ ...MEMBERS, publicKey: "02ab" });
  });

  it("accepts any member order and ignores unknown members", () => {
    const goOrder = `{"publicKey":"${MEMBERS.publicKey}","signature":"${MEMBERS.signature}","scheme":"${MEMBERS.scheme}","extra":{"a":1}}`;
    expect(parseApiKeyStamp(header(goOrder))).toEqual(MEMBERS);
  });

  it("ignores a __proto__ member next to the real ones without touching any prototype", () => {
    const json = `{"__proto__":{"polluted":true},"publicKey":"02ab","scheme":"${MEMBERS.scheme}","signature":"30"}`;
    const stamp = parseApiKeyStamp(header(json));
    expect(stamp).toEqual({ publicKey: "02ab", scheme: MEMBERS.scheme, signature: "30" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(stamp)).toBe(Object.prototype);
  });

  it("refuses members that only a __proto__ member would supply", () => {
    expect(refusalOf(header(`{"__proto__":${JSON.stringify(MEMBERS)}}`)).message).toBe("malformed activity stamp");
  });

  it.each([
    ["not base64url", "not a stamp!"],
    ["standard base64 alphabet", Buffer.from('{"publicKey":"??>"}').toString("base64")],
    ["empty", ""],
    ["not UTF-8", encodeBase64Url(Uint8Array.of(0x7b, 0xff, 0xfe, 0x7d))],
    ["not JSON", header("publicKey=02ab")],
    ["a JSON array", header(JSON.stringify([MEMBERS]))],
    ["a JSON string", header(JSON.stringify(JSON.stringify(MEMBERS)))],
    ["JSON null", header("null")],
    ["a JSON number", header("42")],
    ["missing publicKey", header(JSON.stringify({ ...MEMBERS, publicKey: undefined }))],
    ["missing scheme", header(JSON.stringify({ ...MEMBERS, scheme: undefined }))],
    ["missing signature", header(JSON.stringify({ ...MEMBERS, signature: undefined }))],
    ["an empty signature", header(JSON.stringify({ ...MEMBERS, signature: "" }))],
    ["a numeric publicKey", header(JSON.stringify({ ...MEMBERS, publicKey: 2 }))],
    ["a nested signature", header(JSON.stringify({ ...MEMBERS, signature: { der: "30" } }))],
  ])("refuses a stamp that is %s as UNAUTHENTICATED MALFORMED_STAMP", (_name, value) => {
    const error = refusalOf(value);
    expect(error.code).toBe("UNAUTHENTICATED");
    expect(error.httpStatus).toBe(401);
    expect(error.message).toBe("malformed activity stamp");
    expect(error.details.reason).toBe("MALFORMED_STAMP");
  });
});
