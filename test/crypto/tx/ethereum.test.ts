/**
 * The Ethereum codec on its own: `eth.tx` for every transaction type, checked against the policy sample's
 * contexts and against viem's own parse; ABI-decoded calls; hostile bytes, which are refused as
 * INVALID_ARGUMENT and never break the parser; and what a history reads of a signed serialization (its hash,
 * destination and chain id), against viem's signing.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import fc from "fast-check";
import {
  encodeFunctionData,
  type Hex,
  keccak256,
  parseAbi,
  parseGwei,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializable,
} from "viem";
import { privateKeyToAccount, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { prepareSigner } from "../../../src/crypto/sign/index.js";
import { ethereumCodec, signedEthereumTransaction } from "../../../src/crypto/tx/ethereum.js";
import { decodeCall } from "../../../src/crypto/tx/ethereum-abi.js";
import { CustodyError } from "../../../src/index.js";
import cases from "../../vectors/policy/policy-cases.sample.json" with { type: "json" };

const FIELD = "parameters.unsignedTransaction";
const secret = secp256k1.utils.randomSecretKey();
const publicKey = secp256k1.getPublicKey(secret, true);
const sender = privateKeyToAddress(`0x${Buffer.from(secret).toString("hex")}`);
const recipient = "0x9F8E7D6C5B4a39281706f5e4d3C2b1a098765432" as const;
const fees = { maxFeePerGas: parseGwei("30"), maxPriorityFeePerGas: parseGwei("1") };

function ethTx(serialized: string, interfaces = new Map<string, unknown>()) {
  const data = ethereumCodec.parse(serialized, FIELD).policyData({ interfaces, signer: { publicKey } });
  return (data.eth as { tx: Record<string, unknown> }).tx;
}

describe("eth.tx", () => {
  const common = { chainId: 11155111, nonce: 7, to: recipient, value: 10n ** 16n, gas: 21_000n } as const;
  const table: [string, TransactionSerializable, Record<string, unknown>][] = [
    [
      "legacy",
      { ...common, type: "legacy", gasPrice: parseGwei("20") },
      { type: "LEGACY", gas_price: parseGwei("20"), max_fee_per_gas: 0n, max_priority_fee_per_gas: 0n },
    ],
    [
      "legacy without a chain id (pre-EIP-155)",
      { ...common, chainId: undefined, type: "legacy", gasPrice: 1n },
      { type: "LEGACY", chain_id: 0n, gas_price: 1n },
    ],
    [
      "EIP-2930",
      { ...common, type: "eip2930", gasPrice: 5n, accessList: [{ address: recipient, storageKeys: [] }] },
      { type: "TYPE_1", gas_price: 5n },
    ],
    [
      "EIP-1559",
      { ...common, type: "eip1559", ...fees },
      { type: "TYPE_2", gas_price: fees.maxFeePerGas, max_fee_per_gas: fees.maxFeePerGas, max_fee_per_blob_gas: 0n },
    ],
    [
      "EIP-4844",
      { ...common, type: "eip4844", ...fees, maxFeePerBlobGas: 3n, blobVersionedHashes: [`0x01${"ab".repeat(31)}`] },
      { type: "TYPE_3", max_fee_per_blob_gas: 3n },
    ],
    [
      "EIP-7702",
      {
        ...common,
        type: "eip7702",
        ...fees,
        authorizationList: [
          {
            address: recipient,
            chainId: 1,
            nonce: 8,
            r: `0x${"11".repeat(32)}`,
            s: `0x${"22".repeat(32)}`,
            yParity: 1,
          },
        ],
      },
      { type: "TYPE_4" },
    ],
  ];
  for (const [name, transaction, expected] of table) {
    it(`shows a ${name} transaction with lowercase addresses and BigInt integers, and signs it`, () => {
      const serialized = serializeTransaction(transaction);
      expect(ethTx(serialized)).toMatchObject({
        from: sender.toLowerCase(),
        to: recipient.toLowerCase(),
        data: "0x",
        value: 10n ** 16n,
        gas: 21_000n,
        nonce: 7n,
        chain_id: 11155111n,
        ...expected,
      });
      const signed = ethereumCodec
        .parse(serialized.slice(2), FIELD)
        .sign({ signer: prepareSigner("CURVE_SECP256K1", secret), publicKey }, "parameters.signWith");
      const parsed = parseTransaction(`0x${signed}` as never);
      expect(parsed.type).toBe(transaction.type);
      return expect(recoverTransactionAddress({ serializedTransaction: `0x${signed}` as never })).resolves.toBe(sender);
    });
  }

  it("shows a contract creation with an empty recipient", () => {
    const tx = ethTx(serializeTransaction({ type: "eip1559", chainId: 1, data: "0x6000", gas: 60_000n, ...fees }));
    expect(tx).toMatchObject({ to: "", data: "0x6000" });
  });

  it("matches the policy sample's eth.tx for each of its Ethereum cases", () => {
    const abis: Record<string, readonly unknown[]> = {
      transfer: parseAbi(["function transfer(address dst, uint256 wad)"]),
      executeBatch: parseAbi(["function executeBatch((address target, uint256 value, bytes data)[] calls)"]),
    };
    const revive = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(revive);
      if (typeof value === "number") return BigInt(value);
      if (typeof value === "object" && value !== null) {
        if ("$int" in value) return BigInt((value as { $int: string }).$int);
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
      }
      return typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value;
    };
    const samples = (cases as unknown as { context: { eth?: { tx?: Record<string, unknown> } } }[])
      .map((c) => c.context.eth?.tx)
      .filter((tx) => tx !== undefined);
    expect(samples.length).toBeGreaterThanOrEqual(10);
    for (const sample of samples) {
      const expected = revive(sample) as Record<string, unknown>;
      const functionName = sample.function_name as string | undefined;
      const data = functionName
        ? encodeFunctionData({
            abi: abis[functionName]!,
            functionName,
            args: Object.values(revive(sample.contract_call_args) as object),
          } as never)
        : (sample.data as Hex);
      const serialized = serializeTransaction({
        type: "eip1559",
        chainId: Number(sample.chain_id),
        nonce: Number(sample.nonce),
        to: sample.to as Hex,
        value: expected.value as bigint,
        gas: expected.gas as bigint,
        maxFeePerGas: expected.max_fee_per_gas as bigint,
        maxPriorityFeePerGas: expected.max_priority_fee_per_gas as bigint,
        data,
      });
      const interfaces = new Map(functionName ? [[(sample.to as string).toLowerCase(), abis[functionName]]] : []);
      const { gasPrice, ...tx } = ethTx(serialized, interfaces);
      expect(gasPrice).toBe(tx.gas_price);
      // The sample's sender is another key's, and its executeBatch data is abridged; all else is equal.
      const { from: _from, ...rest } = expected;
      expect(tx).toEqual({ ...rest, from: sender.toLowerCase(), data: functionName ? data : rest.data });
    }
  });
});

describe("ABI-decoded calls", () => {
  const abi = parseAbi([
    "function swap(uint256, int64 delta, bool exact, string memo, bytes32 salt, bytes payload)",
    "function route((address pool, uint24 fee)[2] hops, address[][] paths)",
    "function ping()",
  ]);

  it("names arguments (by position when unnamed), keeps tuples positional, and types every value", () => {
    const salt = `0x${"AB".repeat(32)}` as Hex;
    const swap = decodeCall(
      abi,
      Buffer.from(
        encodeFunctionData({ abi, functionName: "swap", args: [5n, -3n, true, "hi", salt, "0xDEAD"] }).slice(2),
        "hex",
      ),
    );
    expect(swap).toEqual({
      function_name: "swap",
      function_signature: encodeFunctionData({
        abi,
        functionName: "swap",
        args: [0n, 0n, false, "", salt, "0x"],
      }).slice(0, 10),
      contract_call_args: {
        "0": 5n,
        delta: -3n,
        exact: true,
        memo: "hi",
        salt: salt.toLowerCase(),
        payload: "0xdead",
      },
    });
    const hop = { pool: recipient, fee: 3000 } as const;
    const route = decodeCall(
      abi,
      Buffer.from(
        encodeFunctionData({
          abi,
          functionName: "route",
          args: [
            [hop, hop],
            [[recipient], []],
          ],
        }).slice(2),
        "hex",
      ),
    );
    const pool = recipient.toLowerCase();
    expect(route?.contract_call_args).toEqual({
      hops: [
        [pool, 3000n],
        [pool, 3000n],
      ],
      paths: [[pool], []],
    });
    expect(decodeCall(abi, Buffer.from(encodeFunctionData({ abi, functionName: "ping" }).slice(2), "hex"))).toEqual({
      function_name: "ping",
      function_signature: encodeFunctionData({ abi, functionName: "ping" }),
      contract_call_args: {},
    });
  });

  it("leaves a call undecoded when no function has its selector or its arguments do not decode", () => {
    const swap = Buffer.from(
      encodeFunctionData({
        abi,
        functionName: "swap",
        args: [5n, -3n, true, "hi", `0x${"00".repeat(32)}`, "0x"],
      }).slice(2),
      "hex",
    );
    expect(decodeCall(abi, swap.subarray(0, 40))).toBeUndefined();
    expect(decodeCall(abi, Uint8Array.from([0xa9, 0x05, 0x9c, 0xbb]))).toBeUndefined();
    expect(decodeCall(abi, Uint8Array.from([1, 2]))).toBeUndefined();
    expect(decodeCall({ not: "an abi" }, swap)).toBeUndefined();
  });
});

describe("hostile bytes", () => {
  it("are either a transaction or INVALID_ARGUMENT naming the field, never another error", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(0, 1, 2, 3, 4, 0xc0, 0xf8), (body, type) => {
        const hex = Buffer.from([type, ...body]).toString("hex");
        try {
          ethereumCodec.parse(hex, FIELD).policyData({ interfaces: new Map() });
        } catch (error) {
          expect(error).toBeInstanceOf(CustodyError);
          expect((error as CustodyError).code).toBe("INVALID_ARGUMENT");
          expect((error as CustodyError).details.field).toBe(FIELD);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("signedEthereumTransaction", () => {
  const viemSecret = `0x${Buffer.from(secret).toString("hex")}` as const;
  const signedOf = (transaction: TransactionSerializable) =>
    privateKeyToAccount(viemSecret).signTransaction(transaction);

  it("gives the chain's hash, the destination and the chain id, with or without 0x", async () => {
    const signed = await signedOf({ type: "eip1559", chainId: 10, nonce: 3, to: recipient, gas: 21_000n, ...fees });
    const expected = { hash: keccak256(signed), to: recipient.toLowerCase(), chainId: 10n };
    expect(signedEthereumTransaction(signed)).toEqual(expected);
    expect(signedEthereumTransaction(signed.slice(2))).toEqual(expected);
  });

  it("has no destination for a contract creation and no chain id for a pre-EIP-155 legacy signature", async () => {
    const creation = await signedOf({ type: "eip1559", chainId: 1, nonce: 0, data: "0x6000", gas: 60_000n, ...fees });
    expect(signedEthereumTransaction(creation)).toMatchObject({ to: undefined, chainId: 1n });
    const legacy = await signedOf({ type: "legacy", nonce: 0, to: recipient, gas: 21_000n, gasPrice: parseGwei("1") });
    expect(signedEthereumTransaction(legacy)).toMatchObject({ hash: keccak256(legacy), chainId: undefined });
  });

  it("is undefined for unsigned or malformed bytes", () => {
    const unsigned = serializeTransaction({
      type: "eip1559",
      chainId: 1,
      nonce: 0,
      to: recipient,
      gas: 21_000n,
      ...fees,
    });
    expect(signedEthereumTransaction(unsigned)).toBeUndefined();
    expect(signedEthereumTransaction("0x02zz")).toBeUndefined();
    expect(signedEthereumTransaction("")).toBeUndefined();
  });
});
