/**
 * The EIP-7702 transaction that clears an account's delegation, as `eth_undelegate_7702` sends it: the account
 * sends it to itself and pays for it, carrying its own authorization of the zero address (EIP-7702: delegating
 * to the zero address resets the account's code). Since the account is also the sender, its nonce is spent by
 * the transaction before the authorization is applied, so the authorization names the nonce after it.
 *
 * @module
 */
import { authorization, Transaction } from "micro-eth-signer";
import { CustodyError } from "../common/errors.js";
import { bytesToHex } from "../crypto/bytes.js";
import { delegateOf } from "./batch-executor.js";
import { chainFailure } from "./errors.js";
import { EvmRpc } from "./evm-rpc.js";
import type { ChainBackend } from "./registry.js";

/** The gas an undelegation takes with room to spare: 21000, 25000 per authorization, no code to run. */
export const UNDELEGATION_GAS_LIMIT = 60_000n;
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** What the request fixed; absent members are read from the chain. */
export interface UndelegationRequest {
  caip2: string;
  chainId: bigint;
  account: string;
  nonce?: bigint;
  gasLimit?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  /** Signs a 32-byte digest with the account's key. */
  sign: (digest: Uint8Array) => { r: string; s: string; recoveryId: number };
}

/**
 * The unsigned undelegation transaction (`0x` hex of its EIP-2718 serialization), with the account's
 * authorization signed in it. An account that delegates to nothing is refused (`FAILED_PRECONDITION`,
 * `NOT_DELEGATED`), as is one whose code only looks like a delegation; a node whose code answer is not hex is
 * unreachable (`UNAVAILABLE`).
 */
export async function prepareUndelegation(backend: ChainBackend, request: UndelegationRequest): Promise<string> {
  const rpc = new EvmRpc(backend);
  try {
    const chainId = await rpc.chainId();
    if (chainId !== request.chainId) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `the RPC configured for ${request.caip2} serves chain id ${chainId}, not ${request.chainId}`,
        { field: "parameters.caip2", reason: "CHAIN_ID_MISMATCH", caip2: request.caip2 },
      );
    }
    if (delegateOf(await rpc.code(request.account)) === undefined) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `${request.account} delegates to no contract on ${request.caip2}: there is nothing to undelegate`,
        { field: "parameters.from", reason: "NOT_DELEGATED", caip2: request.caip2 },
      );
    }
    const nonce = request.nonce ?? (await rpc.pendingNonce(request.account));
    const priority = request.maxPriorityFeePerGas ?? (await rpc.maxPriorityFeePerGas());
    const maxFee = request.maxFeePerGas ?? 2n * (await rpc.baseFee()) + priority;
    const item = { chainId, address: ZERO_ADDRESS, nonce: nonce + 1n };
    const signature = request.sign(authorization.getHash(item));
    const transaction = new Transaction(
      "eip7702",
      {
        chainId,
        nonce,
        maxPriorityFeePerGas: priority > maxFee ? maxFee : priority,
        maxFeePerGas: maxFee,
        gasLimit: request.gasLimit ?? UNDELEGATION_GAS_LIMIT,
        to: request.account,
        value: 0n,
        data: "0x",
        accessList: [],
        authorizationList: [
          {
            ...item,
            yParity: signature.recoveryId,
            r: BigInt(`0x${signature.r}`),
            s: BigInt(`0x${signature.s}`),
          },
        ],
      } as never,
      { strict: false },
    );
    return `0x${bytesToHex(transaction.toBytes({ includeSignature: false }))}`;
  } catch (error) {
    throw chainFailure(error, request.caip2, "prepare the undelegation", "parameters.caip2");
  }
}
