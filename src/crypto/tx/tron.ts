/**
 * `TRANSACTION_TYPE_TRON`: the `raw_data` of a Tron transaction, read with protobufjs against Tron's layouts
 * (`tron-schema.ts`).
 *
 * Wire form, as Turnkey's with-tron example uses it: `unsignedTransaction` is tronweb's `raw_data_hex`; the
 * answer is the whole signed `protocol.Transaction` in lowercase hex (`raw_data` exactly as it came, then the
 * signature), which the example hands to `tronWeb.trx.sendHexTransaction` and `@turnkey/core` posts to
 * `/wallet/broadcasthex`. The signature is secp256k1 over `sha256(raw_data)` (the transaction id), 65 bytes
 * `r ‖ s ‖ v` with `v = 27 + recovery id`, as tronweb's `ECKeySign` writes it.
 *
 * Policies see `tron.tx` (docs/spec/policy-language.md §2): `ref_block_bytes`, `ref_block_hash` (hex), `data` (the
 * memo, as text), `expiration`, `timestamp`, `fee_limit` (BigInt), and `contract[]` with `type` (the contract type's
 * name), `permission_id`, `owner_address` and the fields of its type: addresses in base58 (`T…`), call data and
 * permission operations in hex without `0x`, amounts BigInt, resources by name (`ENERGY`, `BANDWIDTH`,
 * `TRON_POWER`). A contract type without a declared layout shows only `type`, `permission_id` and `owner_address`.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import type { IConversionOptions } from "protobufjs";
import { invalidArgument } from "../../common/errors.js";
import { bytesToHex, concatBytes, decodeUtf8Strict, hexToBytes, parseHex } from "../bytes.js";
import { DECODED_CONTRACTS, TRON_PROTOCOL } from "./tron-schema.js";
import type { ParsedTransaction, PlainData, TransactionCodec } from "./types.js";

const RAW = TRON_PROTOCOL.lookupType("protocol.TransactionRaw");
const TRANSACTION = TRON_PROTOCOL.lookupType("protocol.Transaction");
// Integers as BigInt, enums by name, absent fields as their proto3 defaults (a policy reads 0, not a missing field).
const AS_OBJECT: IConversionOptions = { longs: BigInt, enums: String, defaults: true, arrays: true };
const TYPE_URL_PREFIX = "type.googleapis.com/protocol.";
const base58check = createBase58check(sha256);
// tronweb's ECKeySign: v = 27 + recovery id.
const RECOVERY_ID_OFFSET = 27;

type Decoded = Record<string, unknown>;

/** A Tron address (21 bytes, `0x41` first) in base58check; other lengths (empty, malformed) in hex. */
function tronAddress(value: Uint8Array): string {
  return value.length === 21 ? base58check.encode(value) : bytesToHex(value);
}

function policyValue(name: string, value: unknown): PlainData {
  if (value instanceof Uint8Array) {
    if (name.endsWith("address")) return tronAddress(value);
    if (name === "asset_name") return decodeUtf8Strict(value) ?? bytesToHex(value);
    return bytesToHex(value);
  }
  if (typeof value === "number") return BigInt(value);
  if (Array.isArray(value)) return value.map((item) => policyValue(name, item));
  if (typeof value === "object" && value !== null) return policyFields(value as Decoded);
  return value as PlainData;
}

function policyFields(decoded: Decoded): { [key: string]: PlainData } {
  return Object.fromEntries(Object.entries(decoded).map(([name, value]) => [name, policyValue(name, value)]));
}

function decodeContract(contract: Decoded, index: number, field: string): { [key: string]: PlainData } {
  const type = String(contract.type);
  const parameter = (contract.parameter ?? {}) as { type_url?: string; value?: Uint8Array };
  if (parameter.type_url !== `${TYPE_URL_PREFIX}${type}`) {
    throw invalidArgument(
      `${field} contract ${index} is a ${type} whose parameter is a ${parameter.type_url || "nothing"}`,
      field,
    );
  }
  const layout = (DECODED_CONTRACTS as readonly string[]).includes(type) ? type : "OwnedContract";
  const message = TRON_PROTOCOL.lookupType(`protocol.${layout}`);
  let fields: Decoded;
  try {
    fields = message.toObject(message.decode(parameter.value ?? new Uint8Array()), AS_OBJECT);
  } catch (error) {
    throw invalidArgument(`${field} contract ${index} (${type}) does not decode: ${(error as Error).message}`, field);
  }
  return { type, permission_id: BigInt(Number(contract.Permission_id ?? 0)), ...policyFields(fields) };
}

function policyTransaction(raw: Decoded, field: string): PlainData {
  const contracts = (raw.contract as Decoded[]).map((contract, index) => decodeContract(contract, index, field));
  const memo = raw.data as Uint8Array;
  return {
    ref_block_bytes: bytesToHex(raw.ref_block_bytes as Uint8Array),
    ref_block_hash: bytesToHex(raw.ref_block_hash as Uint8Array),
    data: decodeUtf8Strict(memo) ?? bytesToHex(memo),
    expiration: raw.expiration as bigint,
    timestamp: raw.timestamp as bigint,
    fee_limit: raw.fee_limit as bigint,
    contract: contracts,
  };
}

export const tronCodec: TransactionCodec = {
  type: "TRANSACTION_TYPE_TRON",
  parse(unsignedTransaction, field): ParsedTransaction {
    const rawBytes = parseHex(unsignedTransaction, field);
    let raw: Decoded;
    try {
      raw = RAW.toObject(RAW.decode(rawBytes), AS_OBJECT);
    } catch (error) {
      throw invalidArgument(`${field} is not a Tron raw_data_hex: ${(error as Error).message}`, field);
    }
    if (!Array.isArray(raw.contract) || raw.contract.length === 0) {
      throw invalidArgument(`${field} is not a Tron raw_data_hex: it has no contract`, field);
    }
    const tx = policyTransaction(raw, field);
    return {
      contracts: [],
      policyData: () => ({ tron: { tx } }),
      sign(key, signWithField) {
        if (key.signer.curve !== "CURVE_SECP256K1") {
          throw invalidArgument(`${signWithField} must name a secp256k1 key to sign a Tron transaction`, signWithField);
        }
        const { r, s, v } = key.signer.sign({ kind: "digest", digest: sha256(rawBytes) });
        const signature = concatBytes(hexToBytes(r + s), Uint8Array.of(RECOVERY_ID_OFFSET + Number.parseInt(v, 16)));
        const signed = TRANSACTION.encode(TRANSACTION.create({ raw_data: rawBytes, signature: [signature] })).finish();
        return bytesToHex(signed);
      },
    };
  },
};
