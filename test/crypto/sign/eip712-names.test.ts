/**
 * EIP-712 documents beyond identifier type names: Hyperliquid's `HyperliquidTransaction:ApproveAgent` is
 * signed over the digest viem and ethers compute, random documents hash as both libraries hash them, and
 * documents with cyclic or undefined types are refused naming the payload.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { TypedDataEncoder } from "ethers";
import fc from "fast-check";
import { getTypesForEIP712Domain, hashTypedData, recoverTypedDataAddress, serializeTypedData } from "viem";
import { describe, expect, it } from "vitest";
import { signRawPayload } from "../../../src/crypto/sign/index.js";
import { APPROVE_AGENT, compact, expectInvalid, secp256k1Key, viemSignature } from "./fixtures.js";

const key = secp256k1Key(0x44);

const sign = (payload: string) =>
  signRawPayload({
    curve: "CURVE_SECP256K1",
    privateKey: key.privateKey,
    payload,
    encoding: "PAYLOAD_ENCODING_EIP712",
    hashFunction: "HASH_FUNCTION_NO_OP",
  });

function asSent(doc: { domain: object; types: object; primaryType: string; message: object }): string {
  const types = { EIP712Domain: getTypesForEIP712Domain({ domain: doc.domain as never }), ...doc.types };
  return serializeTypedData({ ...doc, types } as never);
}

describe("EIP-712 type names with ':'", () => {
  it("signs Hyperliquid's ApproveAgent over viem's and ethers' digest, and viem recovers the signer", async () => {
    const signature = sign(asSent(APPROVE_AGENT));
    const digest = hashTypedData(APPROVE_AGENT);
    const { EIP712Domain: _, ...types } = JSON.parse(asSent(APPROVE_AGENT)).types;
    expect(TypedDataEncoder.hash(APPROVE_AGENT.domain, types, APPROVE_AGENT.message)).toBe(digest);
    expect(secp256k1.verify(compact(signature), hexToBytes(digest.slice(2)), key.publicKey, { prehash: false })).toBe(
      true,
    );
    expect(await recoverTypedDataAddress({ ...APPROVE_AGENT, signature: viemSignature(signature) })).toBe(key.address);
  });

  it("hashes a nested struct and arrays of structs whose names have ':' as viem does", async () => {
    const doc = {
      domain: { name: "x", chainId: 1 },
      types: {
        "Order:Leg": [
          { name: "asset", type: "uint32" },
          { name: "isBuy", type: "bool" },
        ],
        "Order:Batch": [
          { name: "legs", type: "Order:Leg[]" },
          { name: "first", type: "Order:Leg" },
          { name: "tag", type: "bytes4" },
        ],
      },
      primaryType: "Order:Batch",
      message: {
        legs: [
          { asset: 1, isBuy: true },
          { asset: 2, isBuy: false },
        ],
        first: { asset: 3, isBuy: true },
        tag: "0xdeadbeef",
      },
    } as const;
    const signature = sign(asSent(doc));
    expect(await recoverTypedDataAddress({ ...doc, signature: viemSignature(signature) })).toBe(key.address);
  });
});

describe("EIP-712 digests agree with viem and ethers", () => {
  it("for lists of lists, negative integers and empty lists", async () => {
    const doc = {
      domain: { name: "grid", version: "2", chainId: 10, salt: `0x${"11".repeat(32)}` },
      types: {
        "grid:Cell": [{ name: "v", type: "int64" }],
        "grid:Board": [
          { name: "rows", type: "int8[3][]" },
          { name: "cells", type: "grid:Cell[][2]" },
          { name: "none", type: "address[]" },
        ],
      },
      primaryType: "grid:Board",
      message: {
        rows: [
          [-128, 0, 127],
          [1, -1, 2],
        ],
        cells: [[{ v: -9_007_199_254_740_991n }], []],
        none: [],
      },
    } as const;
    const digest = hashTypedData(doc);
    const { EIP712Domain: _, ...types } = JSON.parse(asSent(doc)).types;
    expect(TypedDataEncoder.hash(doc.domain, types, doc.message)).toBe(digest);
    const signature = sign(asSent(doc));
    expect(await recoverTypedDataAddress({ ...doc, signature: viemSignature(signature) })).toBe(key.address);
  });

  const ATOMIC: { type: string; value: fc.Arbitrary<unknown> }[] = [
    { type: "string", value: fc.string() },
    { type: "bytes", value: fc.uint8Array({ maxLength: 40 }).map((b) => `0x${Buffer.from(b).toString("hex")}`) },
    { type: "bool", value: fc.boolean() },
    {
      type: "address",
      value: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString("hex")}`),
    },
    { type: "uint8", value: fc.integer({ min: 0, max: 255 }) },
    { type: "int16", value: fc.integer({ min: -32768, max: 32767 }) },
    { type: "uint256", value: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }) },
    { type: "int256", value: fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n }) },
    {
      type: "bytes32",
      value: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `0x${Buffer.from(b).toString("hex")}`),
    },
  ];
  const member = fc.constantFrom(...ATOMIC.keys());
  const structName = fc.constantFrom("Leaf", "app:Leaf", "A_b$1", "x:y:z");

  it("for random documents of atomic members, arrays and one nested struct", () => {
    fc.assert(
      fc.property(
        structName,
        fc.array(fc.tuple(member, fc.boolean()), { minLength: 1, maxLength: 5 }),
        fc.array(member, { minLength: 1, maxLength: 3 }),
        fc.gen(),
        (leafName, leafMembers, rootMembers, gen) => {
          const leafTypes = leafMembers.map(([i, isArray], n) => ({
            name: `m${n}`,
            type: `${ATOMIC[i]!.type}${isArray ? "[]" : ""}`,
          }));
          const leafValue = () =>
            Object.fromEntries(
              leafMembers.map(([i, isArray], n) => [
                `m${n}`,
                isArray ? gen(fc.array, ATOMIC[i]!.value, { maxLength: 3 }) : gen(() => ATOMIC[i]!.value),
              ]),
            );
          const types = {
            [leafName]: leafTypes,
            "root:Doc": [
              ...rootMembers.map((i, n) => ({ name: `r${n}`, type: ATOMIC[i]!.type })),
              { name: "leaf", type: leafName },
              { name: "leaves", type: `${leafName}[2]` },
            ],
          };
          const message = {
            ...Object.fromEntries(rootMembers.map((i, n) => [`r${n}`, gen(() => ATOMIC[i]!.value)])),
            leaf: leafValue(),
            leaves: [leafValue(), leafValue()],
          };
          const doc = { domain: { name: "fuzz", chainId: 5 }, types, primaryType: "root:Doc", message };
          const digest = hashTypedData(doc as never);
          expect(TypedDataEncoder.hash(doc.domain, types, message)).toBe(digest);
          const signature = sign(asSent(doc));
          expect(
            secp256k1.verify(compact(signature), hexToBytes(digest.slice(2)), key.publicKey, { prehash: false }),
          ).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("EIP-712 documents refused, naming the payload", () => {
  const document = (types: Record<string, { name: string; type: string }[]>, primaryType: string, message: object) =>
    JSON.stringify({ types: { EIP712Domain: [], ...types }, primaryType, domain: {}, message });
  const refused: [string, string, RegExp][] = [
    [
      "a type that refers to itself",
      document({ Node: [{ name: "next", type: "Node" }] }, "Node", {}),
      /refers to itself/,
    ],
    [
      "a type that refers to itself through a list",
      document({ Tree: [{ name: "children", type: "Tree[]" }] }, "Tree", { children: [] }),
      /refers to itself/,
    ],
    [
      "two types that refer to each other",
      document({ "a:A": [{ name: "b", type: "b:B" }], "b:B": [{ name: "a", type: "a:A[2]" }] }, "a:A", {
        b: { a: [] },
      }),
      /"a:A" refers to itself \(a:A → b:B → a:A\)/,
    ],
    [
      "a member of an undefined type",
      document({ T: [{ name: "x", type: "Missing:Type" }] }, "T", { x: {} }),
      /the type "Missing:Type", which its "types" do not define/,
    ],
    [
      "a list of an undefined type",
      document({ T: [{ name: "x", type: "Nope[]" }] }, "T", { x: [] }),
      /the type "Nope"/,
    ],
    [
      "a struct named like an atomic type",
      document({ uint7: [{ name: "x", type: "bool" }] }, "uint7", { x: true }),
      /not a struct name/,
    ],
    [
      "a struct name with a space",
      document({ "A B": [{ name: "x", type: "bool" }] }, "A B", { x: true }),
      /not a struct name/,
    ],
    ["a bytes33 member", document({ T: [{ name: "x", type: "bytes33" }] }, "T", { x: "0x00" }), /bytes33/],
    ["an int7 member", document({ T: [{ name: "x", type: "int7" }] }, "T", { x: 1 }), /int7/],
    ["a bytes4 value of 3 bytes", document({ T: [{ name: "x", type: "bytes4" }] }, "T", { x: "0x010203" }), /4 bytes/],
    ["an int8 below its range", document({ T: [{ name: "x", type: "int8" }] }, "T", { x: -129 }), /range of int8/],
    ["an int8 above its range", document({ T: [{ name: "x", type: "int8" }] }, "T", { x: 128 }), /range of int8/],
    [
      "a uint16 above its range",
      document({ T: [{ name: "x", type: "uint16" }] }, "T", { x: 65_536 }),
      /range of uint16/,
    ],
    ["a fractional integer", document({ T: [{ name: "x", type: "uint256" }] }, "T", { x: 1.5 }), /integer/],
    [
      "an address of 19 bytes",
      document({ T: [{ name: "x", type: "address" }] }, "T", { x: `0x${"ab".repeat(19)}` }),
      /address/,
    ],
    [
      "a member declared twice",
      document(
        {
          T: [
            { name: "x", type: "bool" },
            { name: "x", type: "bool" },
          ],
        },
        "T",
        { x: true },
      ),
      /twice/,
    ],
  ];
  for (const [name, payload, reason] of refused) {
    it(name, () => {
      const error = expectInvalid(() => sign(payload), "parameters.payload");
      expect(error.message).toMatch(reason);
      expect(error.message.length).toBeLessThan(400);
    });
  }

  it("keeps the reason short when the requester's names are huge", () => {
    const long = `T${"x".repeat(10_000)}`;
    const error = expectInvalid(
      () => sign(document({ [long]: [{ name: "y", type: long }] }, long, {})),
      "parameters.payload",
    );
    expect(error.message.length).toBeLessThan(400);
  });
});
