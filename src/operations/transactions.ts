/**
 * `sign_transaction` (`ACTIVITY_TYPE_SIGN_TRANSACTION_V2`): parses `unsignedTransaction` with the codec of its
 * `type` (`crypto/tx/`), shows the parsed transaction to policies (`eth.tx`, `solana.tx`, ...) with the calls
 * decoded by the organization's stored smart contract interfaces, and signs it with the key `signWith` names
 * (resolved as `sign_raw_payload` resolves it).
 *
 * The decision may be taken again at a later vote while signing happens once, so the decision and the handler
 * each ask for the parsed transaction; within one store transaction it is parsed once (parsing is pure, and
 * decoding is a visible part of a `sign_transaction`).
 *
 * @module
 */
import * as v from "valibot";
import { defineActivity } from "../contract/operation.js";
import { normalizeAddressForLookup } from "../crypto/addresses/index.js";
import { hexToBytes } from "../crypto/bytes.js";
import {
  type ContractInterfaces,
  MAX_UNSIGNED_TRANSACTION_LENGTH,
  type ParsedTransaction,
  type SigningIdentity,
  TRANSACTION_TYPES,
  type TransactionSigningKey,
  transactionCodec,
} from "../crypto/tx/index.js";
import { type DataReader, INDEX } from "../model/data.js";
import {
  assertSigningTargetExists,
  resolveSigningTarget,
  type SigningTarget,
  signerOf,
  signingTargetPolicyData,
  signWith as signWithSchema,
} from "./signing.js";

const FIELDS = {
  signWith: "parameters.signWith",
  type: "parameters.type",
  unsignedTransaction: "parameters.unsignedTransaction",
} as const;

/** Transactions already parsed, per reader (one store transaction's view), by type and text. */
const parsedTransactions = new WeakMap<DataReader, Map<string, ParsedTransaction>>();

/** Parses the request's transaction with its type's codec (UNIMPLEMENTED for a type without one). */
function parseTransaction(
  data: DataReader,
  params: { type: (typeof TRANSACTION_TYPES)[number]; unsignedTransaction: string },
): ParsedTransaction {
  const key = `${params.type}\u0000${params.unsignedTransaction}`;
  let known = parsedTransactions.get(data);
  const hit = known?.get(key);
  if (hit) return hit;
  const parsed = transactionCodec(params.type, FIELDS.type).parse(
    params.unsignedTransaction,
    FIELDS.unsignedTransaction,
  );
  if (!known) {
    known = new Map();
    parsedTransactions.set(data, known);
  }
  known.set(key, parsed);
  return parsed;
}

/**
 * The stored interfaces of the contracts a transaction calls. An interface whose JSON no longer parses (it
 * was checked when stored) is skipped: a policy then sees the call undecoded, as without an interface.
 */
export async function storedInterfaces(
  data: DataReader,
  organizationId: string,
  parsed: ParsedTransaction,
): Promise<ContractInterfaces> {
  const found = new Map<string, unknown>();
  const type = parsed.interfaceType;
  if (type === undefined) return found;
  for (const address of parsed.contracts) {
    const id = await data.lookup(
      "smartContractInterfaceByAddress",
      INDEX.smartContractInterfaceByAddress(organizationId, type, address),
    );
    const record = id === undefined ? undefined : await data.get("smartContractInterfaces", id);
    if (!record) continue;
    try {
      found.set(address, JSON.parse(record.smartContractInterface));
    } catch {
      // Skipped, as documented above.
    }
  }
  return found;
}

/** The public key of a signing target, and the address `signWith` named when it named one (not a key id). */
export function signingIdentity(target: SigningTarget, signWith: string): SigningIdentity {
  if (target.kind === "walletAccount") {
    return { publicKey: hexToBytes(target.account.publicKey), address: target.account.address };
  }
  const wanted = normalizeAddressForLookup(signWith);
  const named = target.privateKey.addresses.find((entry) => normalizeAddressForLookup(entry.address) === wanted);
  return {
    publicKey: hexToBytes(target.privateKey.publicKey),
    ...(named === undefined ? {} : { address: named.address }),
  };
}

export const signTransaction = defineActivity({
  method: "signTransaction",
  path: "sign_transaction",
  versions: [
    {
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      intent: "signTransactionIntentV2",
      result: "signTransactionResult",
      parameters: v.object({
        signWith: signWithSchema,
        unsignedTransaction: v.pipe(
          v.string(),
          v.minLength(1, "must not be empty"),
          v.maxLength(MAX_UNSIGNED_TRANSACTION_LENGTH, `must be at most ${MAX_UNSIGNED_TRANSACTION_LENGTH} characters`),
        ),
        type: v.picklist(TRANSACTION_TYPES),
      }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params) {
    const { data, organization } = context;
    const parsed = parseTransaction(data, params);
    const interfaces = await storedInterfaces(data, organization.id, parsed);
    // An unknown signWith shows no signer here; the handler reports it as NOT_FOUND.
    const target = await resolveSigningTarget(data, organization.id, params.signWith, FIELDS.signWith).catch(
      () => undefined,
    );
    if (!target) return parsed.policyData({ interfaces });
    return {
      ...(await signingTargetPolicyData(data, target)),
      ...parsed.policyData({ interfaces, signer: signingIdentity(target, params.signWith) }),
    };
  },
  /**
   * Signing runs through `outsideTransaction`: a PSBT of hundreds of inputs signs for a few hundred
   * milliseconds (giving the event loop back every 25 signatures), and where the pipeline allows it (with
   * signer threads) the store transaction has ended by then, so other activities write meanwhile instead of
   * queueing behind it. The activity is then recorded only if the key still exists. Without signer threads the
   * pipeline keeps one transaction per activity and the signing runs inside it.
   */
  async handler(context, params) {
    const parsed = parseTransaction(context.data, params);
    const target = await resolveSigningTarget(context.data, context.organization.id, params.signWith, FIELDS.signWith);
    const key: TransactionSigningKey = {
      ...signingIdentity(target, params.signWith),
      signer: await signerOf(context.data, context.services, target),
    };
    const signedTransaction = await context.outsideTransaction(
      async () => parsed.sign(key, FIELDS.signWith),
      (data) => assertSigningTargetExists(data, target, params.signWith),
    );
    return { signedTransaction };
  },
});
