import { randomBytes } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { bytesToHex, encodeBase64Url, utf8ToBytes } from "../../../src/crypto/bytes.js";
import {
  parseRegistration,
  parseWebauthnStamp,
  verifyWebauthnAssertion,
  type WebauthnAssertionInput,
  type WebauthnAssertionResult,
  type WebauthnStamp,
} from "../../../src/crypto/webauthn/index.js";
import {
  type CeremonyOptions,
  type SoftwareAlgorithm,
  SoftwareAuthenticator,
  type SoftwareAuthenticatorOptions,
  webauthnStampHeader,
} from "../../support/software-authenticator.js";

const RP_ID = "wallet.example";
const ORIGIN = "https://wallet.example";
const BODY = utf8ToBytes(
  JSON.stringify({
    type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
    timestampMs: "1700000000000",
    organizationId: "org",
    parameters: { signWith: "0xabc", payload: "hello — 世界" },
  }),
);

/** The challenge Turnkey's stampers put in clientDataJSON: ASCII of the lowercase hex SHA-256 of the body. */
function challengeFor(body: Uint8Array): Uint8Array {
  return utf8ToBytes(bytesToHex(sha256(body)));
}

/** A registered credential: the authenticator and what storage would hold for it. */
function enrol(options: SoftwareAuthenticatorOptions = {}) {
  const authenticator = new SoftwareAuthenticator(options);
  const challenge = new Uint8Array(randomBytes(32));
  const registration = parseRegistration({
    attestation: authenticator.create({ challenge, rpId: RP_ID, origin: ORIGIN }),
    challenge: encodeBase64Url(challenge),
    rpId: RP_ID,
    origins: [ORIGIN],
  });
  return { authenticator, registration };
}

function stampOf(authenticator: SoftwareAuthenticator, overrides: Partial<CeremonyOptions> = {}): WebauthnStamp {
  const assertion = authenticator.get({ challenge: challengeFor(BODY), rpId: RP_ID, origin: ORIGIN, ...overrides });
  return parseWebauthnStamp(webauthnStampHeader(assertion));
}

function check(
  enrolled: ReturnType<typeof enrol>,
  stamp: WebauthnStamp,
  overrides: Partial<WebauthnAssertionInput> = {},
): WebauthnAssertionResult {
  return verifyWebauthnAssertion({
    stamp,
    body: BODY,
    publicKeyCose: enrolled.registration.publicKeyCose,
    rpId: RP_ID,
    origins: [ORIGIN],
    previousSignCount: 0,
    ...overrides,
  });
}

function flipByte(bytes: Uint8Array, index: number, mask = 0x01): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[index] = (copy[index] as number) ^ mask;
  return copy;
}

describe("verifyWebauthnAssertion", () => {
  for (const algorithm of ["ES256", "RS256"] as SoftwareAlgorithm[]) {
    describe(algorithm, () => {
      const enrolled = enrol({ algorithm });

      it("accepts an assertion over the body and returns the new counter", () => {
        const stamp = stampOf(enrolled.authenticator);
        expect(stamp.credentialId).toBe(enrolled.registration.credentialId);
        const result = check(enrolled, stamp, { previousSignCount: enrolled.authenticator.signCount - 1 });
        expect(result).toEqual({ ok: true, signCount: enrolled.authenticator.signCount });
      });

      it("refuses the same assertion for another body", () => {
        const stamp = stampOf(enrolled.authenticator);
        expect(check(enrolled, stamp, { body: utf8ToBytes(`${JSON.stringify({ other: 1 })}`) })).toEqual({
          ok: false,
          reason: "CHALLENGE_MISMATCH",
        });
      });

      it("refuses tampered authenticator data", () => {
        const stamp = stampOf(enrolled.authenticator);
        const authenticatorData = flipByte(stamp.authenticatorData, 36);
        expect(check(enrolled, { ...stamp, authenticatorData })).toEqual({ ok: false, reason: "SIGNATURE_INVALID" });
      });

      it("refuses a tampered signature", () => {
        const stamp = stampOf(enrolled.authenticator);
        const signature = flipByte(stamp.signature, stamp.signature.length - 3);
        expect(check(enrolled, { ...stamp, signature })).toEqual({ ok: false, reason: "SIGNATURE_INVALID" });
      });

      it("refuses an assertion checked against another credential's key", () => {
        const other = enrol({ algorithm });
        expect(check(other, stampOf(enrolled.authenticator))).toEqual({ ok: false, reason: "SIGNATURE_INVALID" });
      });
    });
  }

  const enrolled = enrol();

  it.each<[string, Partial<CeremonyOptions>, string]>([
    ["a registration's client data type", { type: "webauthn.create" }, "WRONG_CEREMONY_TYPE"],
    ["another challenge", { challenge: utf8ToBytes(bytesToHex(sha256(utf8ToBytes("{}")))) }, "CHALLENGE_MISMATCH"],
    ["the raw digest rather than its hex as challenge", { challenge: sha256(BODY) }, "CHALLENGE_MISMATCH"],
    ["an origin outside the list", { origin: "https://evil.example" }, "ORIGIN_NOT_ALLOWED"],
    ["a plain-http origin", { origin: "http://wallet.example" }, "ORIGIN_NOT_ALLOWED"],
    ["another relying party", { rpId: "evil.example" }, "RP_ID_MISMATCH"],
    ["no user presence", { userPresent: false }, "USER_NOT_PRESENT"],
  ])("refuses %s", (_name, overrides, reason) => {
    expect(check(enrolled, stampOf(enrolled.authenticator, overrides))).toEqual({ ok: false, reason });
  });

  it("accepts any origin of the allowed list", () => {
    const stamp = stampOf(enrolled.authenticator, { origin: "https://app.wallet.example" });
    expect(check(enrolled, stamp, { origins: [ORIGIN, "https://app.wallet.example"] }).ok).toBe(true);
  });

  it("accepts assertions with high S", () => {
    const highS = Array.from({ length: 64 }, () => stampOf(enrolled.authenticator)).find((stamp) =>
      p256.Signature.fromBytes(stamp.signature, "der").hasHighS(),
    );
    if (highS === undefined) throw new Error("no high-S signature among 64 assertions");
    expect(check(enrolled, highS).ok).toBe(true);
  });

  describe("sign counter", () => {
    it("refuses a counter that did not increase", () => {
      const stamp = stampOf(enrolled.authenticator);
      const counter = enrolled.authenticator.signCount;
      expect(check(enrolled, stamp, { previousSignCount: counter - 1 }).ok).toBe(true);
      expect(check(enrolled, stamp, { previousSignCount: counter })).toEqual({
        ok: false,
        reason: "SIGN_COUNT_REGRESSION",
      });
      expect(check(enrolled, stamp, { previousSignCount: counter + 10 })).toEqual({
        ok: false,
        reason: "SIGN_COUNT_REGRESSION",
      });
    });

    it("accepts a counter that stays at zero (synced passkeys)", () => {
      const synced = enrol({ signCountStep: 0 });
      expect(check(synced, stampOf(synced.authenticator))).toEqual({ ok: true, signCount: 0 });
      expect(check(synced, stampOf(synced.authenticator))).toEqual({ ok: true, signCount: 0 });
    });

    it("refuses a counter back at zero after it was non-zero", () => {
      const synced = enrol({ signCountStep: 0 });
      expect(check(synced, stampOf(synced.authenticator), { previousSignCount: 5 })).toEqual({
        ok: false,
        reason: "SIGN_COUNT_REGRESSION",
      });
    });

    it("checks the signature before the counter", () => {
      const stamp = stampOf(enrolled.authenticator);
      const signature = flipByte(stamp.signature, 8);
      expect(check(enrolled, { ...stamp, signature }, { previousSignCount: 1_000_000 })).toEqual({
        ok: false,
        reason: "SIGNATURE_INVALID",
      });
    });
  });

  describe("malformed parts", () => {
    it("refuses client data that is not JSON", () => {
      const stamp = { ...stampOf(enrolled.authenticator), clientDataJson: utf8ToBytes("webauthn.get") };
      expect(check(enrolled, stamp)).toEqual({ ok: false, reason: "MALFORMED_CLIENT_DATA" });
    });

    it("refuses client data without an origin", () => {
      const clientDataJson = utf8ToBytes(
        JSON.stringify({ type: "webauthn.get", challenge: encodeBase64Url(challengeFor(BODY)) }),
      );
      expect(check(enrolled, { ...stampOf(enrolled.authenticator), clientDataJson })).toEqual({
        ok: false,
        reason: "MALFORMED_CLIENT_DATA",
      });
    });

    it("refuses authenticator data shorter than 37 bytes", () => {
      const stamp = stampOf(enrolled.authenticator);
      const authenticatorData = stamp.authenticatorData.subarray(0, 36);
      expect(check(enrolled, { ...stamp, authenticatorData })).toEqual({
        ok: false,
        reason: "MALFORMED_AUTHENTICATOR_DATA",
      });
    });

    it("refuses authenticator data claiming extensions it does not carry", () => {
      const stamp = stampOf(enrolled.authenticator);
      const authenticatorData = flipByte(stamp.authenticatorData, 32, 0x80);
      expect(check(enrolled, { ...stamp, authenticatorData })).toEqual({
        ok: false,
        reason: "MALFORMED_AUTHENTICATOR_DATA",
      });
    });

    it("refuses a stored key that is not COSE, or of an unsupported algorithm", () => {
      const stamp = stampOf(enrolled.authenticator);
      expect(check(enrolled, stamp, { publicKeyCose: utf8ToBytes("not cbor") })).toEqual({
        ok: false,
        reason: "MALFORMED_PUBLIC_KEY",
      });
      const eddsa = new SoftwareAuthenticator({ algorithm: "EdDSA" });
      expect(check(enrolled, stamp, { publicKeyCose: eddsa.publicKeyCose })).toEqual({
        ok: false,
        reason: "UNSUPPORTED_ALGORITHM",
      });
    });
  });
});
