import { createPublicKey, type KeyObject } from "node:crypto";
import { encodeBase64Url } from "../bytes.js";
import { asBytes, asMap, decodeCbor } from "./cbor.js";
import { WebauthnRefusal } from "./refusal.js";

/** COSE algorithm identifiers custodian accepts for passkeys (Turnkey's list: ES256 and RS256). */
export const COSE_ALGORITHMS = { ES256: -7, RS256: -257 } as const;

/** A COSE algorithm custodian verifies. */
export type CoseAlgorithm = (typeof COSE_ALGORITHMS)[keyof typeof COSE_ALGORITHMS];

/** A credential public key ready for node:crypto. */
export interface CosePublicKey {
  alg: CoseAlgorithm;
  key: KeyObject;
}

// COSE_Key labels (RFC 9052 §7, RFC 9053 §7, RFC 8230 §4).
const KTY = 1;
const ALG = 3;
const EC2_CRV = -1;
const EC2_X = -2;
const EC2_Y = -3;
const RSA_N = -1;
const RSA_E = -2;
const KTY_EC2 = 2;
const KTY_RSA = 3;
const CRV_P256 = 1;
const MIN_RSA_MODULUS_BITS = 2048;

/**
 * Imports a COSE_Key (the credential public key of a passkey) as a node:crypto public key, through JWK:
 * EC2 P-256 with `alg` -7 (ES256), or RSA with `alg` -257 (RS256, modulus of at least 2048 bits).
 * node:crypto refuses an EC point that is not on the curve.
 *
 * @throws WebauthnRefusal `MALFORMED_PUBLIC_KEY`, or `UNSUPPORTED_ALGORITHM` for any other algorithm.
 */
export function importCosePublicKey(cose: Uint8Array): CosePublicKey {
  const map = asMap(decodeCbor(cose, "MALFORMED_PUBLIC_KEY", "the credential public key"));
  if (map === undefined) throw malformed("is not a CBOR map");
  const alg = map.get(ALG);
  const kty = map.get(KTY);
  if (alg === COSE_ALGORITHMS.ES256) {
    const x = asBytes(map.get(EC2_X));
    const y = asBytes(map.get(EC2_Y));
    if (kty !== KTY_EC2 || map.get(EC2_CRV) !== CRV_P256 || x?.length !== 32 || y?.length !== 32) {
      throw malformed("is not an EC2 P-256 key with 32-byte coordinates");
    }
    return { alg, key: importJwk({ kty: "EC", crv: "P-256", x: encodeBase64Url(x), y: encodeBase64Url(y) }) };
  }
  if (alg === COSE_ALGORITHMS.RS256) {
    const n = asBytes(map.get(RSA_N));
    const e = asBytes(map.get(RSA_E));
    if (kty !== KTY_RSA || n === undefined || e === undefined) throw malformed("is not an RSA key with n and e");
    const modulusBits = bitLength(n);
    if (modulusBits < MIN_RSA_MODULUS_BITS) throw malformed(`has a ${modulusBits}-bit RSA modulus`);
    return { alg, key: importJwk({ kty: "RSA", n: encodeBase64Url(n), e: encodeBase64Url(e) }) };
  }
  throw new WebauthnRefusal(
    "UNSUPPORTED_ALGORITHM",
    `credential algorithm ${String(alg)} is not supported; use ES256 (-7) or RS256 (-257)`,
  );
}

function importJwk(jwk: Record<string, string>): KeyObject {
  try {
    return createPublicKey({ key: jwk, format: "jwk" });
  } catch (error) {
    throw new WebauthnRefusal("MALFORMED_PUBLIC_KEY", "the credential public key is not a valid key", undefined, {
      cause: error,
    });
  }
}

function bitLength(bigEndian: Uint8Array): number {
  let first = 0;
  while (first < bigEndian.length && bigEndian[first] === 0) first++;
  if (first === bigEndian.length) return 0;
  return (bigEndian.length - first - 1) * 8 + (32 - Math.clz32(bigEndian[first] as number));
}

function malformed(problem: string): WebauthnRefusal {
  return new WebauthnRefusal("MALFORMED_PUBLIC_KEY", `the credential public key ${problem}`);
}
