/**
 * An EVM send made ready on its chain: the nonce and EIP-1559 fees the request left out are read from the
 * chain, the gas limit estimated, and the unsigned EIP-1559 transaction serialized for the same codec
 * `sign_transaction` uses (so policies see an `eth_send_transaction` exactly as they would see it signed).
 * Broadcasting tells a node's refusal (a nonce already used, a fee too low) from no answer at all.
 *
 * @module
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { Transaction } from "micro-eth-signer";
import { CustodyError } from "../common/errors.js";
import { bytesToHex, parseHex } from "../crypto/bytes.js";
import { chainFailure } from "./errors.js";
import { revertDataOf, revertEntry } from "./evm-revert.js";
import { EvmRpc } from "./evm-rpc.js";
import type { ChainBackend } from "./registry.js";
import { ChainRpcError } from "./rpc.js";

/** One call of a send: the request's `to`, `value` and `data`. */
export interface EvmSendCall {
  to: string;
  value: bigint;
  data: string;
}

/** What the request fixed; absent members are filled from the chain. */
export interface EvmSendRequest {
  caip2: string;
  chainId: bigint;
  from: string;
  call: EvmSendCall;
  nonce?: bigint;
  gasLimit?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

/** The complete transaction, unsigned, as `0x` hex of its EIP-2718 serialization. */
export interface PreparedEvmSend {
  unsignedTransaction: string;
  nonce: bigint;
}

/** Where each request member is reported. */
export interface EvmSendFields {
  caip2: string;
  from: string;
  call: string;
}

/** The node's chain id must be the one the CAIP-2 id names, or the signature would be for another chain. */
async function assertChainId(rpc: EvmRpc, request: EvmSendRequest, field: string): Promise<void> {
  const actual = await rpc.chainId();
  if (actual !== request.chainId) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      `the RPC configured for ${request.caip2} serves chain id ${actual}, not ${request.chainId}`,
      { field, reason: "CHAIN_ID_MISMATCH", caip2: request.caip2 },
    );
  }
}

async function fees(rpc: EvmRpc, request: EvmSendRequest): Promise<{ maxFee: bigint; priority: bigint }> {
  if (request.maxFeePerGas !== undefined && request.maxPriorityFeePerGas !== undefined) {
    return { maxFee: request.maxFeePerGas, priority: request.maxPriorityFeePerGas };
  }
  const priority = request.maxPriorityFeePerGas ?? (await rpc.maxPriorityFeePerGas());
  // Twice the base fee leaves room for six full blocks of base-fee increases, as wallets commonly allow.
  const maxFee = request.maxFeePerGas ?? 2n * (await rpc.baseFee()) + priority;
  return { maxFee, priority: priority > maxFee ? maxFee : priority };
}

async function gasLimit(rpc: EvmRpc, request: EvmSendRequest, field: string): Promise<bigint> {
  if (request.gasLimit !== undefined) return request.gasLimit;
  const { call } = request;
  try {
    return await rpc.estimateGas({ from: request.from, to: call.to, value: call.value, data: call.data });
  } catch (error) {
    if (!(error instanceof ChainRpcError)) throw error;
    const entry = revertEntry(call.to, revertDataOf(error.data));
    const reverted = error.rpcMessage.toLowerCase().includes("revert") || revertDataOf(error.data) !== undefined;
    throw new CustodyError(
      "FAILED_PRECONDITION",
      reverted
        ? `the transaction would revert (${String(entry.displayMessage)}); nothing was broadcast`
        : `${request.caip2} could not estimate its gas: ${error.rpcMessage}; nothing was broadcast`,
      { field, reason: reverted ? "TRANSACTION_REVERTS" : "GAS_ESTIMATION_FAILED", caip2: request.caip2 },
    );
  }
}

/** Reads what the request left out and serializes the unsigned EIP-1559 transaction. */
export async function prepareEvmSend(
  backend: ChainBackend,
  request: EvmSendRequest,
  fields: EvmSendFields,
): Promise<PreparedEvmSend> {
  const rpc = new EvmRpc(backend);
  try {
    await assertChainId(rpc, request, fields.caip2);
    const nonce = request.nonce ?? (await rpc.pendingNonce(request.from));
    const { maxFee, priority } = await fees(rpc, request);
    const gas = await gasLimit(rpc, request, fields.call);
    const transaction = new Transaction(
      "eip1559",
      {
        chainId: request.chainId,
        nonce,
        maxPriorityFeePerGas: priority,
        maxFeePerGas: maxFee,
        gasLimit: gas,
        to: request.call.to,
        value: request.call.value,
        data: request.call.data,
        accessList: [],
      } as never,
      { strict: false },
    );
    return { unsignedTransaction: bytesToHex(transaction.toBytes({ includeSignature: false })), nonce };
  } catch (error) {
    throw chainFailure(error, request.caip2, "prepare the transaction", fields.caip2);
  }
}

/**
 * The unsigned EIP-1559 transaction a call of a sponsored or batched send is judged as: its own `to`, `value`
 * and `data` from the sender, with the nonce and every gas field 0, since the sender pays no gas and spends no
 * nonce of its own (the hosted service shows sponsored sends to policies so, with gas fields 0). Built
 * without reaching the chain, so the decision comes before any chain I/O.
 */
export function unsignedCallView(chainId: bigint, call: EvmSendCall): string {
  const transaction = new Transaction(
    "eip1559",
    {
      chainId,
      nonce: 0n,
      maxPriorityFeePerGas: 0n,
      maxFeePerGas: 0n,
      gasLimit: 0n,
      to: call.to,
      value: call.value,
      data: call.data,
      accessList: [],
    } as never,
    { strict: false },
  );
  return bytesToHex(transaction.toBytes({ includeSignature: false }));
}

/** The hash of a signed transaction (hex, with or without `0x`): keccak-256 of its serialization. */
export function evmTransactionHash(signedTransaction: string): string {
  return `0x${bytesToHex(keccak_256(parseHex(signedTransaction, "signedTransaction")))}`;
}

// Nodes answer a resubmission of a transaction they hold with one of these: it was sent, so it counts.
const ALREADY_KNOWN = /already known|already imported|known transaction|already in (the )?(mem)?pool/i;
const NONCE_USED = /nonce too low|nonce.*(already|used)|replacement transaction underpriced|already exists/i;

/**
 * Broadcasts a signed transaction and returns its hash. A node that already holds it counts as sent; a
 * nonce already used is `FAILED_PRECONDITION` (`NONCE_CONFLICT`); another refusal `CHAIN_REJECTED`; no
 * answer `UNAVAILABLE` (`CHAIN_UNREACHABLE`).
 */
export async function broadcastEvm(
  backend: ChainBackend,
  caip2: string,
  signedTransaction: string,
  field: string,
): Promise<string> {
  const hash = evmTransactionHash(signedTransaction);
  const hex = signedTransaction.startsWith("0x") ? signedTransaction : `0x${signedTransaction}`;
  try {
    await new EvmRpc(backend).sendRawTransaction(hex);
    return hash;
  } catch (error) {
    if (error instanceof ChainRpcError && ALREADY_KNOWN.test(error.rpcMessage)) return hash;
    if (error instanceof ChainRpcError && NONCE_USED.test(error.rpcMessage)) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `${caip2} refused the transaction: its nonce is already used (${error.rpcMessage})`,
        { field, reason: "NONCE_CONFLICT", caip2 },
      );
    }
    throw chainFailure(error, caip2, "broadcast the transaction", field);
  }
}
