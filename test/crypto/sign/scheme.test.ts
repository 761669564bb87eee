import { ed25519 } from "@noble/curves/ed25519.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import {
  type Address,
  getTypesForEIP712Domain,
  type Hex,
  hashTypedData,
  keccak256,
  recoverAddress,
  serializeTypedData,
  sha256,
  type TypedDataDefinition,
  toHex,
} from "viem";
import { hashAuthorization } from "viem/utils";
import { describe, expect, it } from "vitest";
import {
  HASH_FUNCTIONS,
  type HashFunction,
  PAYLOAD_ENCODINGS,
  type PayloadEncoding,
  type SigningCurve,
  signRawPayload,
} from "../../../src/crypto/sign/index.js";
import { custodyErrorOf, ed25519Key, expectInvalid, secp256k1Key, TYPED_DATA, viemSignature } from "./fixtures.js";

const secp = secp256k1Key(0x55);
const ed = ed25519Key(0x66);
const MAIL = TYPED_DATA["the EIP-712 specification's Mail example"] as TypedDataDefinition;
const AUTHORIZATION = { address: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B" as Address, chainId: 1, nonce: 3 };
const PAYLOADS: Record<PayloadEncoding, string> = {
  PAYLOAD_ENCODING_HEXADECIMAL: `0x${"c3".repeat(32)}`,
  PAYLOAD_ENCODING_TEXT_UTF8: "thirty-two bytes of plain text!!",
  PAYLOAD_ENCODING_EIP712: serializeTypedData({
    ...MAIL,
    types: { EIP712Domain: getTypesForEIP712Domain({ domain: MAIL.domain }), ...MAIL.types },
  } as Parameters<typeof serializeTypedData>[0]),
  PAYLOAD_ENCODING_EIP7702_AUTHORIZATION: JSON.stringify(AUTHORIZATION),
};

/** The payload bytes as viem sees them, for the hex and text encodings. */
function rawBytes(encoding: PayloadEncoding): Hex {
  return encoding === "PAYLOAD_ENCODING_HEXADECIMAL" ? (PAYLOADS[encoding] as Hex) : toHex(PAYLOADS[encoding]);
}

/** The digest secp256k1 must have signed, computed with viem alone. */
function expectedDigest(encoding: PayloadEncoding, hashFunction: HashFunction): Hex {
  if (encoding === "PAYLOAD_ENCODING_EIP712") return hashTypedData(MAIL);
  if (encoding === "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION") return hashAuthorization(AUTHORIZATION);
  if (hashFunction === "HASH_FUNCTION_SHA256") return sha256(rawBytes(encoding));
  if (hashFunction === "HASH_FUNCTION_KECCAK256") return keccak256(rawBytes(encoding));
  return rawBytes(encoding);
}

/**
 * The decision table, written out independently of the implementation: undefined means the triple is signed,
 * otherwise the field the refusal must name.
 */
function expectedRefusal(
  curve: SigningCurve,
  encoding: PayloadEncoding,
  hashFunction: HashFunction,
): string | undefined {
  const ethereum = encoding === "PAYLOAD_ENCODING_EIP712" || encoding === "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION";
  if (curve === "CURVE_ED25519") {
    if (ethereum) return "parameters.encoding";
    return hashFunction === "HASH_FUNCTION_NOT_APPLICABLE" ? undefined : "parameters.hashFunction";
  }
  if (ethereum) return hashFunction === "HASH_FUNCTION_NO_OP" ? undefined : "parameters.hashFunction";
  return hashFunction === "HASH_FUNCTION_NOT_APPLICABLE" ? "parameters.hashFunction" : undefined;
}

describe("the (curve, encoding, hash function) table", () => {
  for (const curve of ["CURVE_SECP256K1", "CURVE_ED25519"] as const) {
    for (const encoding of PAYLOAD_ENCODINGS) {
      for (const hashFunction of HASH_FUNCTIONS) {
        const refusal = expectedRefusal(curve, encoding, hashFunction);
        const title = `${curve} × ${encoding} × ${hashFunction}`;
        const request = {
          curve,
          privateKey: curve === "CURVE_SECP256K1" ? secp.privateKey : ed.seed,
          payload: PAYLOADS[encoding],
          encoding,
          hashFunction,
        };
        if (refusal !== undefined) {
          it(`${title} is refused naming ${refusal}`, () => {
            expectInvalid(() => signRawPayload(request), refusal);
          });
        } else if (curve === "CURVE_SECP256K1") {
          it(`${title} signs the expected digest`, async () => {
            const signature = signRawPayload(request);
            const hash = expectedDigest(encoding, hashFunction);
            expect(await recoverAddress({ hash, signature: viemSignature(signature) })).toBe(secp.address);
          });
        } else {
          it(`${title} signs the payload bytes`, () => {
            const { r, s } = signRawPayload(request);
            const message = hexToBytes(rawBytes(encoding).slice(2));
            expect(ed25519.verify(hexToBytes(r + s), message, ed.publicKey)).toBe(true);
          });
        }
      }
    }
  }

  it("refuses an unknown hash function, naming it", () => {
    expectInvalid(
      () =>
        signRawPayload({
          curve: "CURVE_SECP256K1",
          privateKey: secp.privateKey,
          payload: PAYLOADS.PAYLOAD_ENCODING_HEXADECIMAL,
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_SHA3_256" as HashFunction,
        }),
      "parameters.hashFunction",
    );
  });

  it("refuses an unknown encoding before looking at the payload", () => {
    expectInvalid(
      () =>
        signRawPayload({
          curve: "CURVE_SECP256K1",
          privateKey: secp.privateKey,
          payload: "",
          encoding: "PAYLOAD_ENCODING_BASE58" as PayloadEncoding,
          hashFunction: "HASH_FUNCTION_NO_OP",
        }),
      "parameters.encoding",
    );
  });

  it("answers UNIMPLEMENTED for a curve it cannot sign on", () => {
    const error = custodyErrorOf(() =>
      signRawPayload({
        curve: "CURVE_BLS12_381" as SigningCurve,
        privateKey: secp.privateKey,
        payload: PAYLOADS.PAYLOAD_ENCODING_HEXADECIMAL,
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_SHA256",
      }),
    );
    expect(error.code).toBe("UNIMPLEMENTED");
  });
});
