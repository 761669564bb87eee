import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { encodeBase64Url, utf8ToBytes } from "../../../src/crypto/bytes.js";
import { parseWebauthnStamp } from "../../../src/crypto/webauthn/index.js";

const MEMBERS = {
  authenticatorData: encodeBase64Url(Uint8Array.of(1, 2, 3)),
  clientDataJson: encodeBase64Url(utf8ToBytes('{"type":"webauthn.get"}')),
  credentialId: encodeBase64Url(Uint8Array.of(0xfb, 0xff, 0xbf)),
  signature: encodeBase64Url(Uint8Array.of(0x30, 0x06)),
};

function refusalOf(value: string): CustodyError {
  try {
    parseWebauthnStamp(value);
  } catch (error) {
    if (error instanceof CustodyError) return error;
    throw error;
  }
  throw new Error("expected parseWebauthnStamp to refuse");
}

describe("parseWebauthnStamp", () => {
  it("decodes the four base64url members and ignores others", () => {
    const stamp = parseWebauthnStamp(JSON.stringify({ ...MEMBERS, userHandle: null, extra: [1] }));
    expect(stamp).toEqual({
      authenticatorData: Uint8Array.of(1, 2, 3),
      clientDataJson: utf8ToBytes('{"type":"webauthn.get"}'),
      credentialId: "-_-_",
      signature: Uint8Array.of(0x30, 0x06),
    });
  });

  it("reports a padded credential id without its padding", () => {
    const credentialId = encodeBase64Url(Uint8Array.of(1, 2));
    const stamp = parseWebauthnStamp(JSON.stringify({ ...MEMBERS, credentialId: `${credentialId}==` }));
    expect(stamp.credentialId).toBe(credentialId);
  });

  it.each([
    ["not JSON", "authenticatorData=AQID"],
    ["base64url-encoded JSON (the X-Stamp layout)", encodeBase64Url(utf8ToBytes(JSON.stringify(MEMBERS)))],
    ["a JSON array", JSON.stringify([MEMBERS])],
    ["JSON null", "null"],
    ["missing authenticatorData", JSON.stringify({ ...MEMBERS, authenticatorData: undefined })],
    ["missing clientDataJson", JSON.stringify({ ...MEMBERS, clientDataJson: undefined })],
    ["missing credentialId", JSON.stringify({ ...MEMBERS, credentialId: undefined })],
    ["missing signature", JSON.stringify({ ...MEMBERS, signature: undefined })],
    ["a member in standard base64", JSON.stringify({ ...MEMBERS, credentialId: "+/+/" })],
    ["an empty member", JSON.stringify({ ...MEMBERS, signature: "" })],
    ["a numeric member", JSON.stringify({ ...MEMBERS, signature: 12 })],
    ["members only under __proto__", `{"__proto__":${JSON.stringify(MEMBERS)}}`],
  ])("refuses %s as UNAUTHENTICATED MALFORMED_STAMP", (_name, value) => {
    const error = refusalOf(value);
    expect(error.code).toBe("UNAUTHENTICATED");
    expect(error.message).toBe("malformed activity stamp");
    expect(error.details.reason).toBe("MALFORMED_STAMP");
  });
});
