/**
 * The API-key curve types and the request-stamp signature schemes of the wire protocol, and which scheme
 * may sign for a key of which curve.
 *
 * @module
 */

/** API-key curve types, as swagger's `v1ApiKeyCurve` spells them. */
export const API_KEY_CURVES = ["API_KEY_CURVE_P256", "API_KEY_CURVE_SECP256K1", "API_KEY_CURVE_ED25519"] as const;

/** The curve of a registered API key. */
export type ApiKeyCurve = (typeof API_KEY_CURVES)[number];

/**
 * The `scheme` values an `X-Stamp` may carry. Other `SIGNATURE_SCHEME_*` values exist on the wire (vote
 * records, app proofs) but never sign a request.
 */
export const API_KEY_STAMP_SCHEMES = [
  "SIGNATURE_SCHEME_TK_API_P256",
  "SIGNATURE_SCHEME_TK_API_SECP256K1",
  "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191",
  "SIGNATURE_SCHEME_TK_API_ED25519",
] as const;

/** A request-stamp signature scheme. */
export type ApiKeyStampScheme = (typeof API_KEY_STAMP_SCHEMES)[number];

const CURVE_OF_SCHEME: Readonly<Record<ApiKeyStampScheme, ApiKeyCurve>> = {
  SIGNATURE_SCHEME_TK_API_P256: "API_KEY_CURVE_P256",
  SIGNATURE_SCHEME_TK_API_SECP256K1: "API_KEY_CURVE_SECP256K1",
  // Ethereum wallets register their key as a plain secp256k1 key (@turnkey/core `getCurveTypeFromProvider`).
  SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191: "API_KEY_CURVE_SECP256K1",
  SIGNATURE_SCHEME_TK_API_ED25519: "API_KEY_CURVE_ED25519",
};

/** Whether `value` names a request-stamp signature scheme. */
export function isApiKeyStampScheme(value: string): value is ApiKeyStampScheme {
  // Own-property check, so `"toString"` or `"__proto__"` never pass for a scheme.
  return Object.hasOwn(CURVE_OF_SCHEME, value);
}

/**
 * Whether a stamp signed with `scheme` may authenticate an API key registered with `curveType`. An unknown
 * scheme matches no curve.
 */
export function schemeMatchesCurve(scheme: string, curveType: ApiKeyCurve): boolean {
  return isApiKeyStampScheme(scheme) && CURVE_OF_SCHEME[scheme] === curveType;
}
