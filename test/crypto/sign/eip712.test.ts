import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import {
  getTypesForEIP712Domain,
  hashTypedData,
  recoverTypedDataAddress,
  serializeTypedData,
  type TypedDataDefinition,
} from "viem";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, signRawPayload } from "../../../src/crypto/sign/index.js";
import { compact, expectInvalid, secp256k1Key, TYPED_DATA, viemSignature } from "./fixtures.js";

const key = secp256k1Key(0x33);

function signTyped(
  payload: string,
  hashFunction:
    | "HASH_FUNCTION_NO_OP"
    | "HASH_FUNCTION_SHA256"
    | "HASH_FUNCTION_KECCAK256"
    | "HASH_FUNCTION_NOT_APPLICABLE" = "HASH_FUNCTION_NO_OP",
) {
  return signRawPayload({
    curve: "CURVE_SECP256K1",
    privateKey: key.privateKey,
    payload,
    encoding: "PAYLOAD_ENCODING_EIP712",
    hashFunction,
  });
}

/** What viem's wallet `signTypedData` hands @turnkey/viem: the domain type added, then `serializeTypedData`. */
function asSent(doc: TypedDataDefinition): string {
  const types = { EIP712Domain: getTypesForEIP712Domain({ domain: doc.domain }), ...doc.types };
  return serializeTypedData({ ...doc, types } as Parameters<typeof serializeTypedData>[0]);
}

/** Asserts the signature is over viem's `hashTypedData(doc)` and recovers to the key's address. */
async function expectSignedDigestOf(doc: TypedDataDefinition, signature: { r: string; s: string; v: string }) {
  const digest = hexToBytes(hashTypedData(doc).slice(2));
  expect(secp256k1.verify(compact(signature), digest, key.publicKey, { prehash: false })).toBe(true);
  expect(await recoverTypedDataAddress({ ...doc, signature: viemSignature(signature) } as never)).toBe(key.address);
}

const SIMPLE = TYPED_DATA["the EIP-712 specification's Mail example"] as TypedDataDefinition;

describe("EIP-712 typed-data payloads", () => {
  for (const [name, doc] of Object.entries(TYPED_DATA)) {
    it(`signs viem's hashTypedData digest of ${name}`, async () => {
      await expectSignedDigestOf(doc, signTyped(asSent(doc)));
    });
  }

  it("reads integers given as JSON numbers, decimal strings or hex strings alike", async () => {
    const doc = TYPED_DATA["an ERC-2612 permit"] as TypedDataDefinition & { message: Record<string, unknown> };
    const sent = JSON.parse(asSent(doc));
    const asNumbers = { ...sent, message: { ...sent.message, nonce: 0, deadline: 1893456000 } };
    const asHex = { ...sent, message: { ...sent.message, deadline: "0x70dbd880" } };
    for (const variant of [asNumbers, asHex]) {
      await expectSignedDigestOf(doc, signTyped(JSON.stringify(variant)));
    }
  });

  it("derives the domain type from the domain when types has no EIP712Domain, as viem does", async () => {
    const sent = JSON.parse(asSent(SIMPLE));
    delete sent.types.EIP712Domain;
    await expectSignedDigestOf(SIMPLE, signTyped(JSON.stringify(sent)));
  });

  it("signs the domain separator alone when the primary type is EIP712Domain and the message is absent", async () => {
    const doc = { ...SIMPLE, primaryType: "EIP712Domain", message: undefined } as unknown as TypedDataDefinition;
    const payload = asSent(doc);
    expect(JSON.parse(payload)).not.toHaveProperty("message");
    await expectSignedDigestOf(doc, signTyped(payload));
  });

  it("signs the declared members only when a message or domain carries others, as viem hashes it", async () => {
    const sent = JSON.parse(asSent(SIMPLE));
    const withExtras = {
      ...sent,
      domain: { ...sent.domain, salt: "0x00" },
      message: { ...sent.message, bcc: "Eve", from: { ...sent.message.from, nickname: "Cow" } },
    };
    await expectSignedDigestOf(SIMPLE, signTyped(JSON.stringify(withExtras)));
  });

  it("refuses every hash function but NO_OP, naming the hash function", () => {
    for (const hashFunction of [
      "HASH_FUNCTION_SHA256",
      "HASH_FUNCTION_KECCAK256",
      "HASH_FUNCTION_NOT_APPLICABLE",
    ] as const) {
      expectInvalid(() => signTyped(asSent(SIMPLE), hashFunction), "parameters.hashFunction");
    }
  });

  describe("refuses, naming the payload,", () => {
    const sent = () => JSON.parse(asSent(SIMPLE));
    const refused: Record<string, string> = {
      "text that is not JSON": '{"types":',
      "JSON that is not an object": "[1,2]",
      "a JSON string": '"typed data"',
      "a document without types": JSON.stringify({ ...sent(), types: undefined }),
      "types that are an array": JSON.stringify({ ...sent(), types: [] }),
      "a primaryType that is not among the types": JSON.stringify({ ...sent(), primaryType: "Letter" }),
      "a primaryType inherited from Object.prototype": JSON.stringify({ ...sent(), primaryType: "toString" }),
      "a domain that is not an object": JSON.stringify({ ...sent(), domain: "Ether Mail" }),
      "a missing message": JSON.stringify({ ...sent(), message: undefined }),
      "a struct member that is missing a value": JSON.stringify({
        ...sent(),
        message: { ...sent().message, contents: undefined },
      }),
      "a value out of its type's range": JSON.stringify({
        types: { EIP712Domain: [], T: [{ name: "x", type: "uint8" }] },
        primaryType: "T",
        domain: {},
        message: { x: 256 },
      }),
      "a fixed-size array of the wrong length": JSON.stringify({
        types: { EIP712Domain: [], T: [{ name: "x", type: "uint256[2]" }] },
        primaryType: "T",
        domain: {},
        message: { x: [1, 2, 3] },
      }),
      "a type name inherited from Object.prototype": JSON.stringify({
        types: { EIP712Domain: [], T: [{ name: "x", type: "toString" }] },
        primaryType: "T",
        domain: {},
        message: { x: {} },
      }),
      "a constructor type": JSON.stringify({
        types: { EIP712Domain: [], T: [{ name: "x", type: "constructor" }] },
        primaryType: "T",
        domain: {},
        message: { x: {} },
      }),
      "an empty string": "",
    };
    for (const [name, payload] of Object.entries(refused)) {
      it(name, () => {
        const error = expectInvalid(() => signTyped(payload), "parameters.payload");
        expect(error.message.length).toBeLessThan(400);
      });
    }
  });

  describe("refuses hostile JSON, saying why,", () => {
    const hostile: [string, string, string][] = [
      [
        "a __proto__ key among the types",
        `{"types":{"EIP712Domain":[],"__proto__":[{"name":"a","type":"string"}],"T":[{"name":"x","type":"__proto__"}]},"primaryType":"T","domain":{},"message":{"x":{"a":"b"}}}`,
        '"__proto__" key',
      ],
      [
        "a __proto__ key in the message",
        `{"types":{"EIP712Domain":[],"T":[{"name":"x","type":"string"}]},"primaryType":"T","domain":{},"message":{"x":"y","__proto__":{"x":"z"}}}`,
        '"__proto__" key',
      ],
      [
        "a __proto__ key at the top",
        `{"__proto__":{"primaryType":"T"},"types":{"T":[]},"primaryType":"T","domain":{},"message":{}}`,
        '"__proto__" key',
      ],
      [
        "a field typed as an Object.prototype member",
        `{"types":{"EIP712Domain":[],"T":[{"name":"x","type":"hasOwnProperty[]"}]},"primaryType":"T","domain":{},"message":{"x":[]}}`,
        'the type "hasOwnProperty"',
      ],
      [
        "nesting one level past the limit",
        `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`,
        "nests deeper",
      ],
      ["sixty thousand unclosed brackets (under the size limit)", "{".repeat(60_000), "nests deeper"],
    ];
    for (const [name, payload, reason] of hostile) {
      it(name, () => {
        expect(expectInvalid(() => signTyped(payload), "parameters.payload").message).toContain(reason);
      });
    }
  });

  it("keeps brackets inside strings out of the nesting count", async () => {
    const doc = { ...SIMPLE, message: { ...SIMPLE.message, contents: "[".repeat(500) } } as TypedDataDefinition;
    await expectSignedDigestOf(doc, signTyped(asSent(doc)));
  });

  it("bounds the error message when the library quotes a huge value", () => {
    const payload = JSON.stringify({
      types: { EIP712Domain: [], T: [{ name: "x", type: "uint256[]" }] },
      primaryType: "T",
      domain: {},
      message: { x: "9".repeat(50_000) },
    });
    const error = expectInvalid(() => signTyped(payload), "parameters.payload");
    expect(error.message.length).toBeLessThan(400);
  });
});
