import { ED25519_TORSION_SUBGROUP, ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { bytesToHex } from "../../../src/crypto/bytes.js";
import { type ApiKeyCurve, validateApiPublicKey } from "../../../src/crypto/stamp/index.js";

const FIELD = "parameters.apiKeys[0].publicKey";

function refusalOf(publicKey: string, curve: ApiKeyCurve): CustodyError {
  try {
    validateApiPublicKey(publicKey, curve, FIELD);
  } catch (error) {
    if (error instanceof CustodyError) return error;
    throw error;
  }
  throw new Error("expected validateApiPublicKey to refuse");
}

/** An x coordinate with no point on the curve: 02 ‖ x fails to decompress. */
function offCurveCompressed(curve: typeof p256 | typeof secp256k1): string {
  for (let x = 1; ; x++) {
    const candidate = `02${x.toString(16).padStart(64, "0")}`;
    try {
      curve.Point.fromHex(candidate);
    } catch {
      return candidate;
    }
  }
}

describe("validateApiPublicKey", () => {
  it("accepts compressed P-256 keys from @turnkey/crypto, in either hex case", () => {
    const { publicKey } = generateP256KeyPair();
    expect(() => validateApiPublicKey(publicKey, "API_KEY_CURVE_P256", FIELD)).not.toThrow();
    expect(() => validateApiPublicKey(publicKey.toUpperCase(), "API_KEY_CURVE_P256", FIELD)).not.toThrow();
  });

  it("accepts compressed secp256k1 keys and Ed25519 keys", () => {
    const k1 = bytesToHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true));
    const ed = bytesToHex(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
    expect(() => validateApiPublicKey(k1, "API_KEY_CURVE_SECP256K1", FIELD)).not.toThrow();
    expect(() => validateApiPublicKey(ed, "API_KEY_CURVE_ED25519", FIELD)).not.toThrow();
  });

  it("refuses uncompressed points with a message that says to compress them", () => {
    const { publicKeyUncompressed } = generateP256KeyPair();
    const error = refusalOf(publicKeyUncompressed, "API_KEY_CURVE_P256");
    expect(error.message).toMatch(/uncompressed.*33-byte compressed/);
    const k1 = bytesToHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false));
    expect(refusalOf(k1, "API_KEY_CURVE_SECP256K1").message).toMatch(/uncompressed/);
  });

  it.each<[string, () => string, ApiKeyCurve]>([
    ["an off-curve P-256 x", () => offCurveCompressed(p256), "API_KEY_CURVE_P256"],
    ["an off-curve secp256k1 x", () => offCurveCompressed(secp256k1), "API_KEY_CURVE_SECP256K1"],
    ["a secp256k1 key offered as P-256 (x beyond the field)", () => `02${"ff".repeat(32)}`, "API_KEY_CURVE_P256"],
    ["a P-256 key with an 04 prefix but 33 bytes", () => `04${"11".repeat(32)}`, "API_KEY_CURVE_P256"],
    ["a 32-byte P-256 key", () => "11".repeat(32), "API_KEY_CURVE_P256"],
    ["a 0x prefix", () => `0x${generateP256KeyPair().publicKey}`, "API_KEY_CURVE_P256"],
    ["odd hex", () => generateP256KeyPair().publicKey.slice(1), "API_KEY_CURVE_P256"],
    ["not hex", () => "zz".repeat(33), "API_KEY_CURVE_P256"],
    ["empty", () => "", "API_KEY_CURVE_ED25519"],
    ["a compressed P-256 key offered as Ed25519", () => generateP256KeyPair().publicKey, "API_KEY_CURVE_ED25519"],
    ["a non-canonical Ed25519 y (≥ p)", () => `${"ff".repeat(31)}7f`, "API_KEY_CURVE_ED25519"],
    ["the Ed25519 identity (small order)", () => `01${"00".repeat(31)}`, "API_KEY_CURVE_ED25519"],
    ["an Ed25519 point of order 8", () => ED25519_TORSION_SUBGROUP[1] as string, "API_KEY_CURVE_ED25519"],
  ])("refuses %s as INVALID_ARGUMENT naming the field", (_name, key, curve) => {
    const error = refusalOf(key(), curve);
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.field).toBe(FIELD);
    expect(error.message).toContain(FIELD);
  });
});
