/**
 * The Tron protobuf messages `sign_transaction` reads, as protobufjs reflection: field numbers and types from
 * java-tron's `core/Tron.proto` and `core/contract/*.proto`, the layouts tronweb's generated code (`Tron_pb`)
 * encodes. The tests check every contract layout here against tronweb's own encoder and decoder.
 *
 * `Transaction.raw_data` is declared as bytes: a signed transaction must carry the raw bytes that were signed
 * exactly as they came, which re-encoding a decoded message would not guarantee (embedded messages and bytes
 * share one wire form).
 *
 * @module
 */
import { Root } from "protobufjs";

const bytes = (id: number) => ({ type: "bytes", id });
const int64 = (id: number) => ({ type: "int64", id });
const int32 = (id: number) => ({ type: "int32", id });

/** `protocol.Transaction.Contract.ContractType`. */
export const CONTRACT_TYPES = {
  AccountCreateContract: 0,
  TransferContract: 1,
  TransferAssetContract: 2,
  VoteAssetContract: 3,
  VoteWitnessContract: 4,
  WitnessCreateContract: 5,
  AssetIssueContract: 6,
  WitnessUpdateContract: 8,
  ParticipateAssetIssueContract: 9,
  AccountUpdateContract: 10,
  FreezeBalanceContract: 11,
  UnfreezeBalanceContract: 12,
  WithdrawBalanceContract: 13,
  UnfreezeAssetContract: 14,
  UpdateAssetContract: 15,
  ProposalCreateContract: 16,
  ProposalApproveContract: 17,
  ProposalDeleteContract: 18,
  SetAccountIdContract: 19,
  CustomContract: 20,
  CreateSmartContract: 30,
  TriggerSmartContract: 31,
  GetContract: 32,
  UpdateSettingContract: 33,
  ExchangeCreateContract: 41,
  ExchangeInjectContract: 42,
  ExchangeWithdrawContract: 43,
  ExchangeTransactionContract: 44,
  UpdateEnergyLimitContract: 45,
  AccountPermissionUpdateContract: 46,
  ClearABIContract: 48,
  UpdateBrokerageContract: 49,
  ShieldedTransferContract: 51,
  MarketSellAssetContract: 52,
  MarketCancelOrderContract: 53,
  FreezeBalanceV2Contract: 54,
  UnfreezeBalanceV2Contract: 55,
  WithdrawExpireUnfreezeContract: 56,
  DelegateResourceContract: 57,
  UnDelegateResourceContract: 58,
  CancelAllUnfreezeV2Contract: 59,
} as const;

/** The contract types whose parameter layout is declared below (the others show only their type and owner). */
export const DECODED_CONTRACTS = [
  "TransferContract",
  "TransferAssetContract",
  "TriggerSmartContract",
  "FreezeBalanceV2Contract",
  "UnfreezeBalanceV2Contract",
  "DelegateResourceContract",
  "UnDelegateResourceContract",
  "WithdrawExpireUnfreezeContract",
  "AccountPermissionUpdateContract",
] as const;

export const TRON_PROTOCOL = Root.fromJSON({
  nested: {
    protocol: {
      nested: {
        Transaction: { fields: { raw_data: bytes(1), signature: { rule: "repeated", type: "bytes", id: 2 } } },
        TransactionRaw: {
          fields: {
            ref_block_bytes: bytes(1),
            ref_block_num: int64(3),
            ref_block_hash: bytes(4),
            expiration: int64(8),
            data: bytes(10),
            contract: { rule: "repeated", type: "Contract", id: 11 },
            scripts: bytes(12),
            timestamp: int64(14),
            fee_limit: int64(18),
          },
        },
        Contract: {
          fields: {
            type: { type: "ContractType", id: 1 },
            parameter: { type: "Any", id: 2 },
            provider: bytes(3),
            ContractName: bytes(4),
            Permission_id: int32(5),
          },
        },
        ContractType: { values: CONTRACT_TYPES },
        Any: { fields: { type_url: { type: "string", id: 1 }, value: bytes(2) } },
        ResourceCode: { values: { BANDWIDTH: 0, ENERGY: 1, TRON_POWER: 2 } },
        // Every contract's first field is its owner; reading it alone serves the types not declared here.
        OwnedContract: { fields: { owner_address: bytes(1) } },
        TransferContract: { fields: { owner_address: bytes(1), to_address: bytes(2), amount: int64(3) } },
        TransferAssetContract: {
          fields: { asset_name: bytes(1), owner_address: bytes(2), to_address: bytes(3), amount: int64(4) },
        },
        TriggerSmartContract: {
          fields: {
            owner_address: bytes(1),
            contract_address: bytes(2),
            call_value: int64(3),
            data: bytes(4),
            call_token_value: int64(5),
            token_id: int64(6),
          },
        },
        FreezeBalanceV2Contract: {
          fields: { owner_address: bytes(1), frozen_balance: int64(2), resource: { type: "ResourceCode", id: 3 } },
        },
        UnfreezeBalanceV2Contract: {
          fields: { owner_address: bytes(1), unfreeze_balance: int64(2), resource: { type: "ResourceCode", id: 3 } },
        },
        DelegateResourceContract: {
          fields: {
            owner_address: bytes(1),
            resource: { type: "ResourceCode", id: 2 },
            balance: int64(3),
            receiver_address: bytes(4),
            lock: { type: "bool", id: 5 },
            lock_period: int64(6),
          },
        },
        UnDelegateResourceContract: {
          fields: {
            owner_address: bytes(1),
            resource: { type: "ResourceCode", id: 2 },
            balance: int64(3),
            receiver_address: bytes(4),
          },
        },
        WithdrawExpireUnfreezeContract: { fields: { owner_address: bytes(1) } },
        AccountPermissionUpdateContract: {
          fields: {
            owner_address: bytes(1),
            owner: { type: "Permission", id: 2 },
            witness: { type: "Permission", id: 3 },
            actives: { rule: "repeated", type: "Permission", id: 4 },
          },
        },
        Permission: {
          fields: {
            type: { type: "PermissionType", id: 1 },
            id: int32(2),
            permission_name: { type: "string", id: 3 },
            threshold: int64(4),
            parent_id: int32(5),
            operations: bytes(6),
            keys: { rule: "repeated", type: "Key", id: 7 },
          },
        },
        PermissionType: { values: { Owner: 0, Witness: 1, Active: 2 } },
        Key: { fields: { address: bytes(1), weight: int64(2) } },
      },
    },
  },
});
