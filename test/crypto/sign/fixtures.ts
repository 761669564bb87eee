/** Keys, addresses and documents shared by the raw-payload signing tests. */
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Address, Hex, TypedDataDefinition } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { expect } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";

/** A secp256k1 key with its public key and Ethereum address (computed by viem). */
export function secp256k1Key(seedByte: number) {
  const privateKey = new Uint8Array(32).fill(seedByte);
  return {
    privateKey,
    publicKey: secp256k1.getPublicKey(privateKey),
    address: privateKeyToAddress(`0x${bytesToHex(privateKey)}`) as Address,
  };
}

/** An Ed25519 seed with its public key (computed by noble). */
export function ed25519Key(seedByte: number) {
  const seed = new Uint8Array(32).fill(seedByte);
  return { seed, publicKey: ed25519.getPublicKey(seed) };
}

/** viem's `{r, s, yParity}` form of a wire signature, as @turnkey/viem builds it. */
export function viemSignature(sig: { r: string; s: string; v: string }) {
  return { r: `0x${sig.r}` as Hex, s: `0x${sig.s}` as Hex, yParity: Number(sig.v) };
}

/** The 64-byte compact form of a wire secp256k1 signature. */
export function compact(sig: { r: string; s: string }): Uint8Array {
  return secp256k1.Signature.fromHex(sig.r + sig.s, "compact").toBytes("compact");
}

/** Runs `fn` and returns the CustodyError it throws, failing the test if it throws anything else or nothing. */
/** {@link custodyErrorOf} for work that may return a promise: what it throws or rejects with. */
export async function custodyErrorOfAsync(fn: () => unknown): Promise<CustodyError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    return error as CustodyError;
  }
  throw new Error("expected a CustodyError, but nothing was thrown");
}

export function custodyErrorOf(fn: () => unknown): CustodyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    return error as CustodyError;
  }
  throw new Error("expected a CustodyError, but nothing was thrown");
}

/** Asserts that `fn` throws INVALID_ARGUMENT naming `field`. */
export function expectInvalid(fn: () => unknown, field: string): CustodyError {
  const error = custodyErrorOf(fn);
  expect(error.code).toBe("INVALID_ARGUMENT");
  expect(error.field).toBe(field);
  return error;
}

const MAIL_TYPES = {
  Person: [
    { name: "name", type: "string" },
    { name: "wallets", type: "address[]" },
  ],
  Mail: [
    { name: "from", type: "Person" },
    { name: "to", type: "Person[]" },
    { name: "contents", type: "string" },
    { name: "attachments", type: "Attachment[][]" },
  ],
  Attachment: [
    { name: "digest", type: "bytes32" },
    { name: "body", type: "bytes" },
  ],
} as const;

/** EIP-712 documents covering nested structs, arrays of structs, nested arrays and every atomic kind. */
export const TYPED_DATA: Record<string, TypedDataDefinition> = {
  "the EIP-712 specification's Mail example": {
    domain: {
      name: "Ether Mail",
      version: "1",
      chainId: 1n,
      verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
    },
    types: {
      Person: [
        { name: "name", type: "string" },
        { name: "wallet", type: "address" },
      ],
      Mail: [
        { name: "from", type: "Person" },
        { name: "to", type: "Person" },
        { name: "contents", type: "string" },
      ],
    },
    primaryType: "Mail",
    message: {
      from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
      to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
      contents: "Hello, Bob!",
    },
  },
  "nested structs with arrays of structs and arrays of arrays": {
    domain: { name: "Nested", version: "2", chainId: 10n, salt: `0x${"11".repeat(32)}` },
    types: MAIL_TYPES,
    primaryType: "Mail",
    message: {
      from: { name: "Alice", wallets: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"] },
      to: [
        { name: "Bob", wallets: [] },
        {
          name: "Carol",
          wallets: ["0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "0x90F79bf6EB2c4f870365E785982E1f101E93b906"],
        },
      ],
      contents: "nested ✓",
      attachments: [
        [{ digest: `0x${"ab".repeat(32)}`, body: "0xdeadbeef" }],
        [],
        [{ digest: `0x${"00".repeat(32)}`, body: "0x" }],
      ],
    },
  },
  "an ERC-2612 permit": {
    domain: {
      name: "USD Coin",
      version: "2",
      chainId: 8453n,
      verifyingContract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    },
    types: {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit",
    message: {
      owner: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      spender: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
      value: 2n ** 256n - 1n,
      nonce: 0n,
      deadline: 1893456000n,
    },
  },
  "every atomic type, negative integers included": {
    domain: { name: "Atoms", chainId: 137n },
    types: {
      Atoms: [
        { name: "flag", type: "bool" },
        { name: "small", type: "uint8" },
        { name: "signed", type: "int256" },
        { name: "tiny", type: "int8" },
        { name: "selector", type: "bytes4" },
        { name: "blob", type: "bytes" },
        { name: "text", type: "string" },
        { name: "who", type: "address" },
        { name: "ids", type: "uint256[3]" },
      ],
    },
    primaryType: "Atoms",
    message: {
      flag: true,
      small: 255,
      signed: -(2n ** 255n),
      tiny: -128,
      selector: "0xa9059cbb",
      blob: `0x${"5a".repeat(100)}`,
      text: "",
      who: "0x0000000000000000000000000000000000000000",
      ids: [1n, 2n, 3n],
    },
  },
};

/** Hyperliquid's approveAgent action, as its SDKs have the wallet sign it. */
export const APPROVE_AGENT = {
  domain: {
    name: "HyperliquidSignTransaction",
    version: "1",
    chainId: 42161,
    verifyingContract: "0x0000000000000000000000000000000000000000",
  },
  types: {
    "HyperliquidTransaction:ApproveAgent": [
      { name: "hyperliquidChain", type: "string" },
      { name: "agentAddress", type: "address" },
      { name: "agentName", type: "string" },
      { name: "nonce", type: "uint64" },
    ],
  },
  primaryType: "HyperliquidTransaction:ApproveAgent",
  message: {
    hyperliquidChain: "Mainnet",
    agentAddress: "0x5e9ee1089755c3435139848e47e6635505d5a13a",
    agentName: "custodian",
    nonce: 1_732_000_000_000n,
  },
} as const;
