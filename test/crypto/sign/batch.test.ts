import { ed25519 } from "@noble/curves/ed25519.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { type Hex, keccak256, recoverAddress, toHex } from "viem";
import { describe, expect, it } from "vitest";
import {
  MAX_PAYLOADS_PER_REQUEST,
  planRawPayloads,
  planRawPayloadsInSlices,
  prepareSigner,
  signRawPayloads,
  signRawPayloadsInSlices,
} from "../../../src/crypto/sign/index.js";
import { ed25519Key, expectInvalid, secp256k1Key, viemSignature } from "./fixtures.js";

const secp = secp256k1Key(0x77);
const ed = ed25519Key(0x78);

const digests = (count: number): Hex[] => Array.from({ length: count }, (_, i) => keccak256(toHex(`payload ${i}`)));

function signDigests(payloads: readonly string[], field?: string) {
  return signRawPayloads({
    curve: "CURVE_SECP256K1",
    privateKey: secp.privateKey,
    payloads,
    encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
    hashFunction: "HASH_FUNCTION_NO_OP",
    ...(field === undefined ? {} : { field }),
  });
}

describe("signRawPayloads", () => {
  it("signs every payload, in order, each recovering to the account", async () => {
    const payloads = digests(3);
    const signatures = signDigests(payloads);
    expect(signatures).toHaveLength(3);
    for (const [i, signature] of signatures.entries()) {
      expect(await recoverAddress({ hash: payloads[i] as Hex, signature: viemSignature(signature) })).toBe(
        secp.address,
      );
    }
  });

  it(`signs ${MAX_PAYLOADS_PER_REQUEST} Ed25519 payloads with one prepared signer`, () => {
    const signer = prepareSigner("CURVE_ED25519", ed.seed);
    const payloads = Array.from({ length: MAX_PAYLOADS_PER_REQUEST }, (_, i) => `message number ${i}`);
    const signatures = signRawPayloads({
      signer,
      payloads,
      encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
      hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
    });
    expect(signatures).toHaveLength(MAX_PAYLOADS_PER_REQUEST);
    for (const i of [0, 499, MAX_PAYLOADS_PER_REQUEST - 1]) {
      const { r, s } = signatures[i]!;
      expect(ed25519.verify(hexToBytes(r + s), new TextEncoder().encode(payloads[i]), ed.publicKey)).toBe(true);
    }
  });

  for (const count of [MAX_PAYLOADS_PER_REQUEST + 1, 10_000]) {
    it(`refuses ${count} payloads with the limit in the message and details, before signing any`, () => {
      // Payloads that would each fail to decode prove the count is checked first.
      const error = expectInvalid(() => signDigests(Array(count).fill("not hex")), "parameters.payloads");
      expect(error.message).toContain(String(MAX_PAYLOADS_PER_REQUEST));
      expect(error.details.limit).toBe(MAX_PAYLOADS_PER_REQUEST);
    });
  }

  it("refuses an empty list", () => {
    expectInvalid(() => signDigests([]), "parameters.payloads");
  });

  it("names the payload at fault by its index", () => {
    const payloads = digests(5);
    payloads[3] = "0x1234" as Hex;
    expectInvalid(() => signDigests(payloads), "parameters.payloads[3]");
    expectInvalid(() => signDigests(payloads, "intent"), "intent.payloads[3]");
  });

  it("names the shared hash function, not a payload, when the scheme is refused", () => {
    expectInvalid(
      () =>
        signRawPayloads({
          curve: "CURVE_SECP256K1",
          privateKey: secp.privateKey,
          payloads: digests(2),
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
        }),
      "parameters.hashFunction",
    );
  });
});

describe("signRawPayloadsInSlices and planRawPayloadsInSlices", () => {
  /** Counts the event loop's turns while `work` runs: each is a moment another request could have been served. */
  async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    try {
      return { result: await work(), turns };
    } finally {
      running = false;
    }
  }

  const request = {
    curve: "CURVE_SECP256K1" as const,
    privateKey: secp.privateKey,
    payloads: digests(MAX_PAYLOADS_PER_REQUEST),
    encoding: "PAYLOAD_ENCODING_HEXADECIMAL" as const,
    hashFunction: "HASH_FUNCTION_NO_OP" as const,
  };

  it("sign what signRawPayloads signs, giving the event loop back every 50 payloads", async () => {
    const { result, turns } = await turnsDuring(() => signRawPayloadsInSlices(request));
    expect(result).toEqual(signRawPayloads(request));
    expect(turns).toBeGreaterThanOrEqual(MAX_PAYLOADS_PER_REQUEST / 50 - 1);
  });

  it("plan what planRawPayloads plans, giving the event loop back likewise", async () => {
    const { curve, ...parameters } = request;
    const { result, turns } = await turnsDuring(() => planRawPayloadsInSlices(curve, parameters));
    expect(result).toEqual(planRawPayloads(curve, parameters));
    expect(turns).toBeGreaterThanOrEqual(MAX_PAYLOADS_PER_REQUEST / 50 - 1);
  });

  it("refuse as the whole-list functions do", async () => {
    await expect(signRawPayloadsInSlices({ ...request, payloads: [] })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
