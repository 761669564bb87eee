import { readFileSync } from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ADDRESS_FORMAT_SPECS,
  type Curve,
  defaultAccountPath,
  deriveAddress,
  type HdCurve,
  SUPPORTED_ADDRESS_FORMATS,
  type SupportedAddressFormat,
} from "../../../src/crypto/addresses/index.js";
import { deriveKeyPair, mnemonicToSeed } from "../../../src/crypto/hd/index.js";
import { LIBRARY_CHECKS, type LibraryCheck } from "./library-checks.js";

const TEST_SEED = mnemonicToSeed(
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
);

/** Paths checked per format: the SDK default at three account indices, or three ad-hoc paths without one. */
function pathsFor(format: SupportedAddressFormat): string[] {
  const first = defaultAccountPath(format, 0);
  if (first === undefined) return ["m/0'/0", "m/44'/0'/0'/0/0", "m/7'/1'/2"];
  return [first, defaultAccountPath(format, 1) as string, defaultAccountPath(format, 5) as string];
}

const cases = SUPPORTED_ADDRESS_FORMATS.flatMap((format) =>
  (ADDRESS_FORMAT_SPECS[format].curves as readonly HdCurve[]).map((curve) => {
    const checks: Partial<Record<HdCurve, LibraryCheck>> = LIBRARY_CHECKS[format];
    return { format, curve, check: checks[curve] as LibraryCheck };
  }),
);

describe("every address format, checked by its chain's library", () => {
  it("has a library check for each of the 35 formats and each curve they accept", () => {
    expect(SUPPORTED_ADDRESS_FORMATS).toHaveLength(35);
    expect(Object.keys(LIBRARY_CHECKS).sort()).toEqual([...SUPPORTED_ADDRESS_FORMATS].sort());
    expect(cases.every((entry) => entry.check !== undefined)).toBe(true);
  });

  describe.each(cases)("$format on $curve", ({ format, curve, check }) => {
    it.each(pathsFor(format))(`matches ${check.library} at %s`, (path) => {
      const { publicKey } = deriveKeyPair(TEST_SEED, curve, path);
      check.check(publicKey, deriveAddress(curve, format, publicKey));
    });

    it(`matches ${check.library} for random keys (property)`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (secret) => {
          fc.pre(curve === "CURVE_ED25519" || secp256k1.utils.isValidSecretKey(secret));
          const publicKey =
            curve === "CURVE_SECP256K1" ? secp256k1.getPublicKey(secret, true) : ed25519.getPublicKey(secret);
          check.check(publicKey, deriveAddress(curve, format, publicKey));
        }),
        { numRuns: 12 },
      );
    });
  });
});

interface KnownAddress {
  mnemonic: string;
  curve: Curve;
  path: string;
  addressFormat: SupportedAddressFormat;
  address: string;
  basis: string;
}

const known = JSON.parse(readFileSync(new URL("../../vectors/known-addresses.json", import.meta.url), "utf8")) as {
  vectors: KnownAddress[];
};

describe("published addresses", () => {
  it.each(known.vectors)("$basis: $path gives $address", (vector) => {
    const { publicKey } = deriveKeyPair(mnemonicToSeed(vector.mnemonic), vector.curve, vector.path);
    expect(deriveAddress(vector.curve, vector.addressFormat, publicKey)).toBe(vector.address);
  });
});
