/**
 * The Tron codec against tronweb: raw transactions tronweb encodes offline (`txJsonToPb`, no node), signed by
 * the codec with a prepared signer and recovered by tronweb; every declared contract layout read back as
 * tronweb's own decoder reads it.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { TronWeb, Trx, utils } from "tronweb";
import { describe, expect, it } from "vitest";
import { prepareSigner } from "../../../src/crypto/sign/index.js";
import { transactionCodec } from "../../../src/crypto/tx/index.js";
import { custodyErrorOf } from "../sign/fixtures.js";

const FIELD = "parameters.unsignedTransaction";
const SIGN_WITH = "parameters.signWith";
const codec = transactionCodec("TRANSACTION_TYPE_TRON", "parameters.type");

const privateKey = new Uint8Array(32).fill(0x51);
const ownerBase58 = TronWeb.address.fromPrivateKey(Buffer.from(privateKey).toString("hex")) as string;
const owner = TronWeb.address.toHex(ownerBase58);
const to = `41${"22".repeat(20)}`;
const signingKey = {
  signer: prepareSigner("CURVE_SECP256K1", privateKey),
  publicKey: secp256k1.getPublicKey(privateKey),
};

/** The part of tronweb's generated `protocol.Transaction` class the test reads. */
interface TronWebTransactionClass {
  deserializeBinary(bytes: Uint8Array): {
    getRawData(): { serializeBinary(): Uint8Array };
    getSignatureList_asU8(): Uint8Array[];
  };
}

/** A tronweb transaction of one contract, built offline as its transaction builder's `txJsonToPb` does. */
function tronTransaction(type: string, value: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const raw_data = {
    contract: [{ parameter: { value, type_url: `type.googleapis.com/protocol.${type}` }, type }],
    ref_block_bytes: "4c1a",
    ref_block_hash: "a3f1c2d4e5b6a7f8",
    expiration: 1773600060000,
    timestamp: 1773600000000,
    ...extra,
  };
  const pb = utils.transaction.txJsonToPb({ visible: false, raw_data } as never);
  return {
    raw_data,
    raw_data_hex: utils.transaction.txPbToRawDataHex(pb).toLowerCase(),
    txID: utils.transaction.txPbToTxID(pb).replace(/^0x/, ""),
  };
}

function contractView(rawDataHex: string) {
  const data = codec.parse(rawDataHex, FIELD).policyData({ interfaces: new Map() }) as {
    tron: { tx: { contract: Record<string, unknown>[] } & Record<string, unknown> };
  };
  return data.tron.tx;
}

/** tronweb's decoded parameter in the policy spelling: base58 addresses, lowercase hex, BigInt integers. */
function policySpelling(name: string, value: unknown): unknown {
  if (typeof value === "number") return BigInt(value);
  if (typeof value === "string" && name.endsWith("address")) return TronWeb.address.fromHex(value);
  if (typeof value === "string" && name === "asset_name") return Buffer.from(value, "hex").toString("utf8");
  if (typeof value === "string" && /^[0-9A-F]*$/i.test(value) && name !== "resource") return value.toLowerCase();
  if (Array.isArray(value)) return value.map((item) => policySpelling(name, item));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, policySpelling(key, item)]));
  }
  return value;
}

describe("TRANSACTION_TYPE_TRON", () => {
  it("signs a TRX transfer that tronweb recovers to the owner", async () => {
    const tx = tronTransaction("TransferContract", { owner_address: owner, to_address: to, amount: 100 });
    const signedHex = await codec.parse(tx.raw_data_hex, FIELD).sign(signingKey, SIGN_WITH);
    // tronweb's generated protobuf classes, which it installs globally for its own decoding.
    const proto = (globalThis as unknown as { TronWebProto: { Transaction: TronWebTransactionClass } }).TronWebProto;
    const signed = proto.Transaction.deserializeBinary(Buffer.from(signedHex, "hex"));
    expect(Buffer.from(signed.getRawData().serializeBinary()).toString("hex")).toBe(tx.raw_data_hex);
    const signature = Buffer.from(signed.getSignatureList_asU8()[0]!).toString("hex");
    expect(signature).toMatch(/^[0-9a-f]{128}1[bc]$/);
    expect(Trx.ecRecover({ ...tx, visible: false, signature: [signature] } as never)).toBe(ownerBase58);
  });

  it("shows a TRC-20 transfer as the policy cases do", () => {
    const data = `a9059cbb${"00".repeat(12)}${"22".repeat(20)}${"00".repeat(29)}0f4240`;
    const tx = tronTransaction(
      "TriggerSmartContract",
      { owner_address: owner, contract_address: to, data },
      { fee_limit: 100000000, data: Buffer.from("memo").toString("hex") },
    );
    expect(contractView(tx.raw_data_hex)).toEqual({
      ref_block_bytes: "4c1a",
      ref_block_hash: "a3f1c2d4e5b6a7f8",
      data: "memo",
      expiration: 1773600060000n,
      timestamp: 1773600000000n,
      fee_limit: 100000000n,
      contract: [
        {
          type: "TriggerSmartContract",
          permission_id: 0n,
          owner_address: ownerBase58,
          contract_address: TronWeb.address.fromHex(to),
          call_value: 0n,
          data,
          call_token_value: 0n,
          token_id: 0n,
        },
      ],
    });
  });

  const contracts: [string, Record<string, unknown>][] = [
    ["TransferContract", { owner_address: owner, to_address: to, amount: 100 }],
    ["TransferAssetContract", { owner_address: owner, to_address: to, amount: 9, asset_name: "31303032303030" }],
    [
      "TriggerSmartContract",
      {
        owner_address: owner,
        contract_address: to,
        call_value: 5,
        data: "a9059cbb00",
        call_token_value: 3,
        token_id: 1000001,
      },
    ],
    ["FreezeBalanceV2Contract", { owner_address: owner, frozen_balance: 10, resource: "ENERGY" }],
    ["UnfreezeBalanceV2Contract", { owner_address: owner, unfreeze_balance: 10, resource: "ENERGY" }],
    [
      "DelegateResourceContract",
      { owner_address: owner, resource: "ENERGY", balance: 7, receiver_address: to, lock: true, lock_period: 20 },
    ],
    ["UnDelegateResourceContract", { owner_address: owner, resource: "ENERGY", balance: 7, receiver_address: to }],
    ["WithdrawExpireUnfreezeContract", { owner_address: owner }],
    [
      "AccountPermissionUpdateContract",
      {
        owner_address: owner,
        owner: { type: 0, permission_name: "owner", threshold: 1, keys: [{ address: owner, weight: 1 }] },
        actives: [
          {
            type: 2,
            id: 2,
            permission_name: "active",
            threshold: 2,
            operations: `7fff1fc0033e${"00".repeat(26)}`,
            keys: [{ address: to, weight: 2 }],
          },
        ],
      },
    ],
  ];

  it.each(contracts)("reads a %s as tronweb's decoder does", (type, value) => {
    const tx = tronTransaction(type, value);
    const theirs = utils.deserializeTx.deserializeTransaction(type, tx.raw_data_hex).contract[0].parameter.value;
    const [ours] = contractView(tx.raw_data_hex).contract;
    expect(ours).toMatchObject({ type, permission_id: 0n, ...(policySpelling("", theirs) as object) });
  });

  it("shows a contract type without a declared layout by its type and owner", () => {
    const tx = tronTransaction("VoteWitnessContract", {
      owner_address: owner,
      votes: [{ vote_address: to, vote_count: 3 }],
    });
    expect(contractView(tx.raw_data_hex).contract).toEqual([
      { type: "VoteWitnessContract", permission_id: 0n, owner_address: ownerBase58 },
    ]);
  });

  it("refuses an Ed25519 key, naming signWith", () => {
    const tx = tronTransaction("TransferContract", { owner_address: owner, to_address: to, amount: 1 });
    const ed = { signer: prepareSigner("CURVE_ED25519", privateKey), publicKey: new Uint8Array(32) };
    expect(custodyErrorOf(() => codec.parse(tx.raw_data_hex, FIELD).sign(ed, SIGN_WITH)).details.field).toBe(SIGN_WITH);
  });

  it("refuses what is not a raw_data_hex, naming the transaction", () => {
    const { raw_data_hex: hex } = tronTransaction("TransferContract", {
      owner_address: owner,
      to_address: to,
      amount: 1,
    });
    const mismatched = tronTransaction("TransferContract", {
      owner_address: owner,
      to_address: to,
      amount: 1,
    }).raw_data_hex.replace(
      Buffer.from("protocol.TransferContract").toString("hex"),
      Buffer.from("protocol.TransferContracu").toString("hex"),
    );
    for (const garbage of [
      "zz",
      "abc",
      "",
      "0a024c",
      hex.slice(0, hex.length - 10),
      "0a024c1a",
      mismatched,
      Buffer.from(hex, "hex").toString("base64"),
    ]) {
      const error = custodyErrorOf(() => codec.parse(garbage, FIELD));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.details.field).toBe(FIELD);
    }
  });
});
