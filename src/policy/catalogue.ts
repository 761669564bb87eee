/**
 * The fields each keyword has (docs/spec/policy-language.md §2, "Struct fields"), so a policy naming a field the
 * language does not define (`eth.tx.recipient`) is refused when it is written, with the closest field, instead
 * of erroring at every evaluation. Where the values are open (maps such as `eth.tx.contract_call_args` or
 * `eth.eip_712.message`, and Tron contracts, whose fields depend on the contract type) nothing past them is
 * checked.
 *
 * @module
 */

/** What an expression can find at a keyword path. */
export type Shape =
  /** A string, integer, boolean or timestamp: it has no fields. */
  | { readonly kind: "leaf" }
  /** Keys that depend on the data (a map, a decoded call): anything may be read from it. */
  | { readonly kind: "open" }
  | { readonly kind: "list"; readonly of: Shape }
  | { readonly kind: "struct"; readonly fields: Readonly<Record<string, Field>> };

/** A field of a struct; `warning` when the hosted language defines it but custodian never fills it. */
export interface Field {
  readonly shape: Shape;
  readonly warning?: string;
}

const leaf: Shape = { kind: "leaf" };
const open: Shape = { kind: "open" };
const listOf = (of: Shape): Shape => ({ kind: "list", of });

type FieldSpec = Shape | Field;

function struct(fields: Record<string, FieldSpec>): Shape {
  const out: Record<string, Field> = {};
  for (const [name, spec] of Object.entries(fields)) out[name] = "kind" in spec ? { shape: spec } : spec;
  return { kind: "struct", fields: out };
}

/** Leaves, one per name. */
function leaves(...names: string[]): Record<string, Shape> {
  return Object.fromEntries(names.map((name) => [name, leaf]));
}

const ethereumTransaction = struct({
  ...leaves("from", "to", "data", "type", "value", "gas", "gas_price", "gasPrice", "chain_id", "nonce"),
  ...leaves("max_fee_per_gas", "max_priority_fee_per_gas", "max_fee_per_blob_gas"),
  // Present with a stored ABI for the called contract.
  ...leaves("function_name", "function_signature"),
  contract_call_args: open,
});

const solanaParsedInstruction = struct({
  ...leaves("instruction_name", "discriminator"),
  named_accounts: open,
  named_account: {
    shape: open,
    warning:
      "custodian shows an instruction's named accounts as 'named_accounts' (docs/spec/policy-language.md, " +
      "decision 17), so 'named_account' errors when evaluated",
  },
  program_call_args: open,
});

const solanaTransaction = struct({
  account_keys: listOf(leaf),
  program_keys: listOf(leaf),
  recent_blockhash: leaf,
  instructions: listOf(
    struct({
      program_key: leaf,
      accounts: listOf(struct(leaves("account_key", "signer", "writable"))),
      instruction_data_hex: leaf,
      address_table_lookups: listOf(struct(leaves("address_table_key", "index", "writable"))),
      parsed_instruction_data: solanaParsedInstruction,
    }),
  ),
  transfers: listOf(struct(leaves("from", "to", "amount"))),
  spl_transfers: listOf(
    struct({ ...leaves("from", "to", "amount", "owner", "token_mint", "decimals", "fee"), signers: listOf(leaf) }),
  ),
  address_table_lookups: listOf(
    struct({ address_table_key: leaf, writable_indexes: listOf(leaf), readonly_indexes: listOf(leaf) }),
  ),
});

const tronTransaction = struct({
  ...leaves("ref_block_bytes", "ref_block_hash", "data", "expiration", "timestamp", "fee_limit"),
  // Each contract type has its own fields.
  contract: listOf(open),
});

const bitcoinTransaction = struct({
  version: leaf,
  inputs: listOf(struct(leaves("tx_id", "vout", "sequence"))),
  outputs: listOf(struct(leaves("value", "script_pubkey", "address", "address_type"))),
  locktime: struct(leaves("amount", "type")),
  fee: leaf,
});

const tempoTransaction = struct({
  ...leaves("chain_id", "nonce", "gas_limit", "max_fee_per_gas", "max_priority_fee_per_gas", "valid_before"),
  ...leaves("valid_after", "from", "fee_token"),
  calls: listOf(struct(leaves("to", "input", "function_signature"))),
});

const wallet = struct(leaves("id", "label", "imported", "exported"));

/**
 * The names `activity.params` can hold: those some activity kind exposes, in the hosted language (the Spark
 * ones included) or in custodian (`src/engine/decisions/policy-context.ts`). Which of them an activity has
 * depends on its kind; a name none has can never be read.
 */
const ACTIVITY_PARAMETERS = [
  "hash_function",
  "encoding",
  "type",
  "user_ids",
  "user_id",
  "api_key_ids",
  "target_public_key",
  "wallet_id",
  "otp_length",
  "session_profile_id",
  "endpoint_id",
  "sign_with",
  "signatures",
  "transfer",
  "claim",
  "lightning_receive",
] as const;

const NEVER_FILLED = (what: string) => `custodian never fills ${what}, so a policy reading it errors when evaluated`;

/** The shape of each keyword root. */
export const KEYWORD_SHAPES: Readonly<Record<string, Field>> = {
  activity: {
    shape: struct({
      ...leaves("type", "kind", "resource", "action"),
      params: struct(Object.fromEntries(ACTIVITY_PARAMETERS.map((name) => [name, open]))),
    }),
  },
  eth: {
    shape: struct({
      tx: ethereumTransaction,
      eip_712: struct({
        primary_type: leaf,
        domain: struct(leaves("name", "version", "chain_id", "verifying_contract")),
        message: open,
      }),
      eip_7702_authorization: struct(leaves("address", "chain_id", "nonce")),
    }),
  },
  solana: { shape: struct({ tx: solanaTransaction }) },
  tron: { shape: struct({ tx: tronTransaction }) },
  bitcoin: { shape: struct({ tx: bitcoinTransaction }) },
  tempo: {
    shape: struct({ tx: tempoTransaction }),
    warning: NEVER_FILLED("'tempo' (Tempo transactions are not served)"),
  },
  wallet: { shape: wallet },
  wallets: { shape: listOf(wallet), warning: NEVER_FILLED("'wallets' (no request spans several wallets)") },
  wallet_account: { shape: struct(leaves("address")) },
  private_key: { shape: struct({ ...leaves("id", "label", "imported", "exported"), tags: listOf(leaf) }) },
  secret: { shape: struct({ static_properties: open }) },
  approvers: { shape: listOf(struct({ ...leaves("id", "email", "alias"), tags: listOf(leaf) })) },
  credentials: { shape: listOf(struct(leaves("id", "user_id", "type", "credential_id", "public_key"))) },
  time: { shape: struct(leaves("now")) },
};
