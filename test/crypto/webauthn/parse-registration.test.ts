import { randomBytes } from "node:crypto";
import { decode, encode } from "cborg";
import { describe, expect, it } from "vitest";
import { decodeBase64Url, encodeBase64Url, utf8ToBytes } from "../../../src/crypto/bytes.js";
import {
  parseRegistration,
  type RegistrationInput,
  WebauthnRefusal,
  type WebauthnRefusalReason,
} from "../../../src/crypto/webauthn/index.js";
import {
  type CeremonyOptions,
  SoftwareAuthenticator,
  type SoftwareAuthenticatorOptions,
} from "../../support/software-authenticator.js";

const RP_ID = "wallet.example";
const ORIGIN = "https://wallet.example";
const PATH = "parameters.authenticators[0]";

function ceremony(overrides: Partial<CeremonyOptions> = {}): CeremonyOptions {
  return { challenge: new Uint8Array(randomBytes(32)), rpId: RP_ID, origin: ORIGIN, ...overrides };
}

function register(options: SoftwareAuthenticatorOptions = {}, overrides: Partial<CeremonyOptions> = {}) {
  const authenticator = new SoftwareAuthenticator(options);
  const options_ = ceremony(overrides);
  const attestation = authenticator.create(options_);
  const input: RegistrationInput = {
    attestation,
    challenge: encodeBase64Url(options_.challenge),
    rpId: RP_ID,
    origins: [ORIGIN],
    path: PATH,
  };
  return { authenticator, attestation, input };
}

function refusalOf(input: RegistrationInput): WebauthnRefusal {
  try {
    parseRegistration(input);
  } catch (error) {
    if (error instanceof WebauthnRefusal) return error;
    throw error;
  }
  throw new Error("expected parseRegistration to refuse");
}

function expectRefusal(input: RegistrationInput, reason: WebauthnRefusalReason, field: string): void {
  const error = refusalOf(input);
  expect(error.code).toBe("INVALID_ARGUMENT");
  expect(error.httpStatus).toBe(400);
  expect(error.reason).toBe(reason);
  expect(error.details).toMatchObject({ reason, field: `${PATH}.${field}` });
  expect(error.message.startsWith(`${PATH}.${field}: `)).toBe(true);
}

/** Rewrites the CBOR attestation object through `edit`, leaving everything else as the authenticator made it. */
function editAttestationObject<T extends { attestationObject: string }>(
  attestation: T,
  edit: (object: Map<string, unknown>) => void,
): T {
  const object = decode(decodeBase64Url(attestation.attestationObject) as Uint8Array, { useMaps: true }) as Map<
    string,
    unknown
  >;
  edit(object);
  return { ...attestation, attestationObject: encodeBase64Url(new Uint8Array(encode(object))) };
}

function authDataOf(object: Map<string, unknown>): Uint8Array {
  return Uint8Array.from(object.get("authData") as Uint8Array);
}

describe("parseRegistration", () => {
  for (const algorithm of ["ES256", "RS256"] as const) {
    for (const attestation of ["none", "packed"] as const) {
      it(`accepts a ${algorithm} credential with ${attestation} attestation`, () => {
        const aaguid = new Uint8Array(randomBytes(16));
        const { authenticator, input } = register({ algorithm, attestation, aaguid });
        const registration = parseRegistration(input);
        expect(registration).toEqual({
          credentialId: authenticator.credentialIdBase64Url,
          publicKeyCose: authenticator.publicKeyCose,
          alg: algorithm === "ES256" ? -7 : -257,
          aaguid,
          attestationType: attestation === "none" ? "none" : "self",
          signCount: 0,
          transports: ["AUTHENTICATOR_TRANSPORT_INTERNAL"],
        });
      });
    }
  }

  it("returns the ES256 key as the 77-byte COSE_Key Turnkey exposes", () => {
    const { input } = register();
    const { publicKeyCose } = parseRegistration(input);
    expect(publicKeyCose.length).toBe(77);
    expect(Array.from(publicKeyCose.subarray(0, 10))).toEqual([
      0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20,
    ]);
  });

  for (const algorithm of ["ES256", "RS256"] as const) {
    it(`keeps the exact ${algorithm} key bytes when extensions follow the key in authenticator data`, () => {
      const { authenticator, input } = register(
        { algorithm, attestation: "packed" },
        { extensions: { credProtect: 2, "hmac-secret": true } },
      );
      expect(parseRegistration(input).publicKeyCose).toEqual(authenticator.publicKeyCose);
    });
  }

  it("takes a non-canonical key as written when nothing follows it, and refuses it when extensions do", () => {
    const { authenticator, input } = register();
    const cose = authenticator.publicKeyCose;
    expect(Array.from(cose.subarray(0, 3))).toEqual([0xa5, 0x01, 0x02]);
    // kty 2 written in two bytes (18 02) where CTAP2 canonical form takes one.
    const nonCanonical = Uint8Array.from([0xa5, 0x01, 0x18, 0x02, ...cose.subarray(3)]);
    const withKey = (extensions: boolean) =>
      editAttestationObject(input.attestation, (object) => {
        const authData = authDataOf(object);
        const head = authData.subarray(0, authData.length - cose.length);
        const tail = extensions ? new Uint8Array(encode(new Map([["credProtect", 2]]))) : new Uint8Array();
        const edited = Uint8Array.from([...head, ...nonCanonical, ...tail]);
        if (extensions) edited[32] = (edited[32] as number) | 0x80;
        object.set("authData", edited);
      });
    expect(parseRegistration({ ...input, attestation: withKey(false) }).publicKeyCose).toEqual(nonCanonical);
    expectRefusal(
      { ...input, attestation: withKey(true) },
      "MALFORMED_AUTHENTICATOR_DATA",
      "attestation.attestationObject",
    );
  });

  it("accepts a padded challenge and credential id, and reports the id without padding", () => {
    const { authenticator, input } = register();
    const padded = (value: string) => value.padEnd(Math.ceil(value.length / 4) * 4, "=");
    const registration = parseRegistration({
      ...input,
      challenge: padded(input.challenge),
      attestation: { ...input.attestation, credentialId: padded(input.attestation.credentialId) },
    });
    expect(registration.credentialId).toBe(authenticator.credentialIdBase64Url);
  });

  it("names fields from the root when no path is given", () => {
    const { input } = register();
    const error = refusalOf({ ...input, path: undefined, origins: ["https://other.example"] });
    expect(error.field).toBe("attestation.clientDataJson");
  });

  describe("refuses", () => {
    it("a challenge other than the one signed", () => {
      const { input } = register();
      expectRefusal(
        { ...input, challenge: encodeBase64Url(new Uint8Array(randomBytes(32))) },
        "CHALLENGE_MISMATCH",
        "attestation.clientDataJson",
      );
    });

    it("an origin outside the allowed list", () => {
      const { input } = register({}, { origin: "https://wallet.example.evil" });
      expectRefusal(input, "ORIGIN_NOT_ALLOWED", "attestation.clientDataJson");
    });

    it("an origin that differs only by port", () => {
      const { input } = register({}, { origin: "https://wallet.example:8443" });
      expectRefusal(input, "ORIGIN_NOT_ALLOWED", "attestation.clientDataJson");
    });

    it("an assertion's client data (webauthn.get)", () => {
      const { input } = register({}, { type: "webauthn.get" });
      expectRefusal(input, "WRONG_CEREMONY_TYPE", "attestation.clientDataJson");
    });

    it("a credential scoped to another relying party", () => {
      const { input } = register({}, { rpId: "evil.example" });
      expectRefusal(input, "RP_ID_MISMATCH", "attestation.attestationObject");
    });

    it("authenticator data without the user-present flag", () => {
      const { input } = register({}, { userPresent: false });
      expectRefusal(input, "USER_NOT_PRESENT", "attestation.attestationObject");
    });

    it("an EdDSA credential (Turnkey accepts ES256 and RS256 only)", () => {
      const { input } = register({ algorithm: "EdDSA" });
      expectRefusal(input, "UNSUPPORTED_ALGORITHM", "attestation.attestationObject");
    });

    it("an attestation object that is not CBOR", () => {
      const { input } = register();
      const attestation = { ...input.attestation, attestationObject: encodeBase64Url(utf8ToBytes("{not cbor")) };
      expectRefusal({ ...input, attestation }, "MALFORMED_ATTESTATION", "attestation.attestationObject");
    });

    it("a truncated attestation object", () => {
      const { input } = register();
      const bytes = decodeBase64Url(input.attestation.attestationObject) as Uint8Array;
      const attestation = {
        ...input.attestation,
        attestationObject: encodeBase64Url(bytes.subarray(0, bytes.length - 5)),
      };
      expectRefusal({ ...input, attestation }, "MALFORMED_ATTESTATION", "attestation.attestationObject");
    });

    it("an attestation object that is a CBOR array, not a map", () => {
      const { input } = register();
      const attestation = {
        ...input.attestation,
        attestationObject: encodeBase64Url(new Uint8Array(encode(["none", new Map(), new Uint8Array(37)]))),
      };
      expectRefusal({ ...input, attestation }, "MALFORMED_ATTESTATION", "attestation.attestationObject");
    });

    it("an attestation object that is not base64url", () => {
      const { input } = register();
      const attestation = { ...input.attestation, attestationObject: "o+/=" };
      expectRefusal({ ...input, attestation }, "MALFORMED_ATTESTATION", "attestation.attestationObject");
    });

    it("client data that is not JSON", () => {
      const { input } = register();
      const attestation = { ...input.attestation, clientDataJson: encodeBase64Url(utf8ToBytes("webauthn.create")) };
      expectRefusal({ ...input, attestation }, "MALFORMED_CLIENT_DATA", "attestation.clientDataJson");
    });

    it("a challenge that is not base64url", () => {
      const { input } = register();
      expectRefusal({ ...input, challenge: "not base64!" }, "MALFORMED_CHALLENGE", "challenge");
    });

    it("a credential id other than the attested one", () => {
      const { input } = register();
      const attestation = { ...input.attestation, credentialId: encodeBase64Url(new Uint8Array(randomBytes(32))) };
      expectRefusal({ ...input, attestation }, "CREDENTIAL_ID_MISMATCH", "attestation.attestationObject");
    });

    it("authenticator data with trailing bytes", () => {
      const { input } = register();
      const attestation = editAttestationObject(input.attestation, (object) => {
        object.set("authData", Uint8Array.from([...authDataOf(object), 0]));
      });
      expectRefusal({ ...input, attestation }, "MALFORMED_AUTHENTICATOR_DATA", "attestation.attestationObject");
    });

    it("authenticator data without attested credential data", () => {
      const { input } = register();
      const attestation = editAttestationObject(input.attestation, (object) => {
        const authData = authDataOf(object).slice(0, 37);
        authData[32] = (authData[32] as number) & ~0x40;
        object.set("authData", authData);
      });
      expectRefusal({ ...input, attestation }, "MALFORMED_ATTESTATION", "attestation.attestationObject");
    });

    it("a packed self-attestation whose signature does not verify", () => {
      const { input } = register({ attestation: "packed", algorithm: "RS256" });
      const attestation = editAttestationObject(input.attestation, (object) => {
        const attStmt = object.get("attStmt") as Map<string, unknown>;
        const sig = Uint8Array.from(attStmt.get("sig") as Uint8Array);
        sig[10] = (sig[10] as number) ^ 0x01;
        attStmt.set("sig", sig);
      });
      expectRefusal({ ...input, attestation }, "ATTESTATION_SIGNATURE_INVALID", "attestation.attestationObject");
    });

    it("a packed self-attestation made for other client data", () => {
      const { authenticator, input } = register({ attestation: "packed" });
      const replayed = authenticator.create(ceremony());
      const attestation = { ...input.attestation, attestationObject: replayed.attestationObject };
      expectRefusal({ ...input, attestation }, "ATTESTATION_SIGNATURE_INVALID", "attestation.attestationObject");
    });

    it("a packed self-attestation naming another algorithm", () => {
      const { input } = register({ attestation: "packed" });
      const attestation = editAttestationObject(input.attestation, (object) => {
        (object.get("attStmt") as Map<string, unknown>).set("alg", -257);
      });
      expectRefusal({ ...input, attestation }, "MALFORMED_ATTESTATION", "attestation.attestationObject");
    });

    it("a none attestation with a statement", () => {
      const { input } = register();
      const attestation = editAttestationObject(input.attestation, (object) => {
        object.set("attStmt", new Map([["sig", new Uint8Array(8)]]));
      });
      expectRefusal({ ...input, attestation }, "MALFORMED_ATTESTATION", "attestation.attestationObject");
    });

    it("a packed attestation with a certificate chain", () => {
      const { input } = register({ attestation: "packed" });
      const attestation = editAttestationObject(input.attestation, (object) => {
        (object.get("attStmt") as Map<string, unknown>).set("x5c", [new Uint8Array(64)]);
      });
      expectRefusal({ ...input, attestation }, "UNSUPPORTED_ATTESTATION_FORMAT", "attestation.attestationObject");
    });

    it.each(["fido-u2f", "tpm", "android-key", "android-safetynet", "apple"])("the %s attestation format", (fmt) => {
      const { input } = register({ attestation: "packed" });
      const attestation = editAttestationObject(input.attestation, (object) => object.set("fmt", fmt));
      const error = refusalOf({ ...input, attestation });
      expect(error.reason).toBe("UNSUPPORTED_ATTESTATION_FORMAT");
      expect(error.message).toContain(`attestation format ${fmt}`);
      expect(error.message).toContain('request attestation "none"');
    });
  });
});
