/**
 * Transaction codecs of `sign_transaction`, one per `TRANSACTION_TYPE_*` (see `types.ts` for the interface).
 * A type without a codec is answered `UNIMPLEMENTED`, naming it.
 *
 * @module
 */
import { CustodyError } from "../../common/errors.js";
import { bitcoinCodec } from "./bitcoin.js";
import { ethereumCodec } from "./ethereum.js";
import { solanaCodec } from "./solana.js";
import { tronCodec } from "./tron.js";
import type { TransactionCodec, TransactionType } from "./types.js";

export { type SignedEthereumTransaction, signedEthereumTransaction } from "./ethereum.js";
export { MAX_UNSIGNED_TRANSACTION_LENGTH } from "./limits.js";
export {
  type ContractInterfaces,
  type ParsedTransaction,
  type SigningIdentity,
  SMART_CONTRACT_INTERFACE_TYPES,
  type SmartContractInterfaceType,
  TRANSACTION_TYPES,
  type TransactionCodec,
  type TransactionPolicyInput,
  type TransactionSigningKey,
  type TransactionType,
} from "./types.js";

/** The registry: one line per codec. */
const CODECS: Partial<Record<TransactionType, TransactionCodec>> = {
  TRANSACTION_TYPE_ETHEREUM: ethereumCodec,
  TRANSACTION_TYPE_BITCOIN: bitcoinCodec,
  TRANSACTION_TYPE_SOLANA: solanaCodec,
  TRANSACTION_TYPE_TRON: tronCodec,
};

/** The codec of `type`, or `UNIMPLEMENTED` naming the type and the field. */
export function transactionCodec(type: TransactionType, field: string): TransactionCodec {
  const codec = CODECS[type];
  if (!codec) {
    throw new CustodyError("UNIMPLEMENTED", `${field} ${type} cannot be signed by custodian yet`, { field });
  }
  return codec;
}
