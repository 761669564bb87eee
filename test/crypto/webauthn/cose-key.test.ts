import { generateKeyPairSync } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { encode } from "cborg";
import { describe, expect, it } from "vitest";
import { decodeBase64Url } from "../../../src/crypto/bytes.js";
import {
  importCosePublicKey,
  WebauthnRefusal,
  type WebauthnRefusalReason,
} from "../../../src/crypto/webauthn/index.js";
import { SoftwareAuthenticator } from "../../support/software-authenticator.js";

function cose(entries: [number, unknown][]): Uint8Array {
  return new Uint8Array(encode(new Map(entries)));
}

function ec2(x: Uint8Array, y: Uint8Array, overrides: [number, unknown][] = []): Uint8Array {
  const map = new Map<number, unknown>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, x],
    [-3, y],
  ]);
  // An override of undefined leaves the label out (CBOR keys carry no undefined).
  for (const [label, value] of overrides) {
    if (value === undefined) map.delete(label);
    else map.set(label, value);
  }
  return new Uint8Array(encode(map));
}

function rsa(modulusLength: number): Uint8Array {
  const jwk = generateKeyPairSync("rsa", { modulusLength }).publicKey.export({ format: "jwk" });
  return cose([
    [1, 3],
    [3, -257],
    [-1, decodeBase64Url(jwk.n as string)],
    [-2, decodeBase64Url(jwk.e as string)],
  ]);
}

function reasonOf(bytes: Uint8Array): WebauthnRefusalReason {
  try {
    importCosePublicKey(bytes);
  } catch (error) {
    if (error instanceof WebauthnRefusal) return error.reason;
    throw error;
  }
  throw new Error("expected importCosePublicKey to refuse");
}

const point = p256.getPublicKey(p256.utils.randomSecretKey(), false);
const x = point.slice(1, 33);
const y = point.slice(33);

describe("importCosePublicKey", () => {
  it("imports an ES256 EC2 key as a P-256 node:crypto key", () => {
    const { alg, key } = importCosePublicKey(ec2(x, y));
    expect(alg).toBe(-7);
    expect(key.asymmetricKeyType).toBe("ec");
    expect(key.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
  });

  it("imports an RS256 key", () => {
    const { alg, key } = importCosePublicKey(new SoftwareAuthenticator({ algorithm: "RS256" }).publicKeyCose);
    expect(alg).toBe(-257);
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it.each<[string, () => Uint8Array, WebauthnRefusalReason]>([
    [
      "a point off the curve",
      () =>
        ec2(
          x,
          Uint8Array.from(y, (byte, i) => (i === 31 ? byte ^ 1 : byte)),
        ),
      "MALFORMED_PUBLIC_KEY",
    ],
    ["a P-384 curve id", () => ec2(x, y, [[-1, 2]]), "MALFORMED_PUBLIC_KEY"],
    ["an OKP key type with ES256", () => ec2(x, y, [[1, 1]]), "MALFORMED_PUBLIC_KEY"],
    ["a short x", () => ec2(x.subarray(1), y), "MALFORMED_PUBLIC_KEY"],
    ["a missing y", () => ec2(x, y, [[-3, undefined]]), "MALFORMED_PUBLIC_KEY"],
    ["a 1024-bit RSA modulus", () => rsa(1024), "MALFORMED_PUBLIC_KEY"],
    ["an ES384 algorithm", () => ec2(x, y, [[3, -35]]), "UNSUPPORTED_ALGORITHM"],
    ["no algorithm", () => ec2(x, y, [[3, undefined]]), "UNSUPPORTED_ALGORITHM"],
    ["an EdDSA key", () => new SoftwareAuthenticator({ algorithm: "EdDSA" }).publicKeyCose, "UNSUPPORTED_ALGORITHM"],
    ["a CBOR array", () => new Uint8Array(encode([2, -7, 1, x, y])), "MALFORMED_PUBLIC_KEY"],
    ["bytes that are not CBOR", () => Uint8Array.of(0xa5, 0x01), "MALFORMED_PUBLIC_KEY"],
    ["a key followed by extra bytes", () => Uint8Array.from([...ec2(x, y), 0]), "MALFORMED_PUBLIC_KEY"],
  ])("refuses %s", (_name, bytes, reason) => {
    expect(reasonOf(bytes())).toBe(reason);
  });
});
