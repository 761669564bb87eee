import { describe, expect, it } from "vitest";
import {
  API_KEY_CURVES,
  API_KEY_STAMP_SCHEMES,
  isApiKeyStampScheme,
  schemeMatchesCurve,
} from "../../../src/crypto/stamp/index.js";

describe("schemeMatchesCurve", () => {
  it("pairs each stamp scheme with exactly one curve", () => {
    const pairs = API_KEY_STAMP_SCHEMES.flatMap((scheme) =>
      API_KEY_CURVES.filter((curve) => schemeMatchesCurve(scheme, curve)).map((curve) => `${scheme}:${curve}`),
    );
    expect(pairs).toEqual([
      "SIGNATURE_SCHEME_TK_API_P256:API_KEY_CURVE_P256",
      "SIGNATURE_SCHEME_TK_API_SECP256K1:API_KEY_CURVE_SECP256K1",
      "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191:API_KEY_CURVE_SECP256K1",
      "SIGNATURE_SCHEME_TK_API_ED25519:API_KEY_CURVE_ED25519",
    ]);
  });

  it.each(["SIGNATURE_SCHEME_TK_WEBAUTHN", "SIGNATURE_SCHEME_TK_QUORUM_P256", "toString", "__proto__", ""])(
    "matches no curve for %j, which does not sign requests",
    (scheme) => {
      expect(isApiKeyStampScheme(scheme)).toBe(false);
      for (const curve of API_KEY_CURVES) expect(schemeMatchesCurve(scheme, curve)).toBe(false);
    },
  );
});
