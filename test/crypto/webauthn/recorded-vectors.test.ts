import { readFileSync } from "node:fs";
import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { concatBytes, decodeBase64Url } from "../../../src/crypto/bytes.js";
import {
  importCosePublicKey,
  parseRegistration,
  verifyCoseSignature,
  WebauthnRefusal,
} from "../../../src/crypto/webauthn/index.js";

interface RecordedRegistration {
  name: string;
  rpId: string;
  origin: string;
  challenge: string;
  credentialId: string;
  attestationObject: string;
  clientDataJson: string;
  expected?: { alg: number; attestationType: string; signCount?: number; publicKeyCose?: string };
  reason?: string;
}

interface RecordedAssertion {
  name: string;
  publicKeyCose: string;
  authenticatorData: string;
  clientDataJson: string;
  signature: string;
}

const vectors = JSON.parse(
  readFileSync(new URL("../../vectors/webauthn/simplewebauthn.json", import.meta.url), "utf8"),
) as {
  registrations: RecordedRegistration[];
  refusedRegistrations: RecordedRegistration[];
  assertions: RecordedAssertion[];
};

function bytes(base64url: string): Uint8Array {
  const decoded = decodeBase64Url(base64url);
  if (decoded === undefined) throw new Error(`vector is not base64url: ${base64url}`);
  return decoded;
}

function registrationInput(vector: RecordedRegistration) {
  return {
    attestation: {
      credentialId: vector.credentialId,
      clientDataJson: vector.clientDataJson,
      attestationObject: vector.attestationObject,
      transports: [],
    },
    challenge: vector.challenge,
    rpId: vector.rpId,
    origins: [vector.origin],
  };
}

describe("recorded registrations from real authenticators (SimpleWebAuthn fixtures)", () => {
  it.each(vectors.registrations.map((vector) => [vector.name, vector] as const))("accepts %s", (_name, vector) => {
    const registration = parseRegistration(registrationInput(vector));
    expect(registration.credentialId).toBe(vector.credentialId);
    expect(registration.alg).toBe(vector.expected?.alg);
    expect(registration.attestationType).toBe(vector.expected?.attestationType);
    if (vector.expected?.signCount !== undefined) expect(registration.signCount).toBe(vector.expected.signCount);
    if (vector.expected?.publicKeyCose !== undefined) {
      expect(registration.publicKeyCose).toEqual(bytes(vector.expected.publicKeyCose));
    }
    expect(() => importCosePublicKey(registration.publicKeyCose)).not.toThrow();
  });

  it.each(vectors.refusedRegistrations.map((vector) => [vector.name, vector] as const))(
    "refuses %s",
    (_name, vector) => {
      let refusal: unknown;
      try {
        parseRegistration(registrationInput(vector));
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(WebauthnRefusal);
      expect((refusal as WebauthnRefusal).reason).toBe(vector.reason);
      expect((refusal as WebauthnRefusal).field).toBe("attestation.attestationObject");
    },
  );

  it("refuses each recorded registration for another relying party or origin", () => {
    for (const vector of vectors.registrations) {
      const input = registrationInput(vector);
      expect(() => parseRegistration({ ...input, rpId: `x.${vector.rpId}` })).toThrow(/relying party/);
      expect(() => parseRegistration({ ...input, origins: ["https://elsewhere.example"] })).toThrow(/not allowed/);
    }
  });
});

describe("recorded assertions from real authenticators (SimpleWebAuthn fixtures)", () => {
  it.each(vectors.assertions.map((vector) => [vector.name, vector] as const))(
    "verifies the signature of %s over authenticatorData ‖ SHA-256(clientDataJSON)",
    (_name, vector) => {
      const key = importCosePublicKey(bytes(vector.publicKeyCose));
      const authenticatorData = bytes(vector.authenticatorData);
      const signed = concatBytes(authenticatorData, sha256(bytes(vector.clientDataJson)));
      expect(verifyCoseSignature(key, signed, bytes(vector.signature))).toBe(true);
      const tampered = Uint8Array.from(signed);
      tampered[33] = (tampered[33] as number) ^ 0x01;
      expect(verifyCoseSignature(key, tampered, bytes(vector.signature))).toBe(false);
    },
  );
});
