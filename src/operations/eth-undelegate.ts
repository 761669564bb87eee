/**
 * `eth_undelegate_7702`: clears an account's EIP-7702 delegation (the batch executor a sponsored send made it
 * delegate to, or any other) on an EVM chain the host named. The account sends the EIP-7702 transaction to
 * itself and pays its gas, as the hosted service's undelegation does (its request has no `sponsor`): nonce and
 * fees are read from the chain when the request leaves them out, and the gas limit is a fixed 60,000 unless
 * it names one (`evm-undelegate.ts`). The transaction is recorded as a send status, which the tracker settles.
 *
 * Policies judge it as a signature by the account's key (`PRIVATE_KEY` / `SIGN`, with the signer's
 * `wallet`, `wallet_account` or `private_key` keywords); there is no `eth.tx` for it, since what it sends is
 * fixed by the account alone.
 *
 * @module
 */
import * as v from "valibot";
import { broadcastEvm } from "../chains/evm-send.js";
import { prepareUndelegation } from "../chains/evm-undelegate.js";
import { defineActivity } from "../contract/operation.js";
import { transactionCodec } from "../crypto/tx/index.js";
import { evmDigestSignature, recordSend } from "../domain/sends.js";
import { address, caip2, uint } from "./eth-send.js";
import { resolveSigningTarget, signerOf, signingTargetPolicyData } from "./signing.js";
import { signingIdentity } from "./transactions.js";

const optionalBigInt = (value: string | undefined) => (value === undefined ? undefined : BigInt(value));

// One broadcast per parsed request, so a store that re-runs the activity re-sends the same bytes.
const broadcasts = new WeakMap<object, Promise<string>>();

export const ethUndelegate7702 = defineActivity({
  method: "ethUndelegate7702",
  path: "eth_undelegate_7702",
  versions: [
    {
      type: "ACTIVITY_TYPE_ETH_UNDELEGATE_7702",
      alsoAccepted: ["ACTIVITY_TYPE_ETH_UNDELEGATE7702"],
      intent: "ethUndelegate7702Intent",
      result: "ethUndelegate7702Result",
      parameters: v.object({
        from: address,
        caip2,
        nonce: v.optional(uint),
        gasLimit: v.optional(uint),
        maxFeePerGas: v.optional(uint),
        maxPriorityFeePerGas: v.optional(uint),
      }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params) {
    // An unknown `from` shows no signer; the handler reports it as NOT_FOUND.
    const target = await resolveSigningTarget(
      context.data,
      context.organization.id,
      params.from,
      "parameters.from",
    ).catch(() => undefined);
    return target ? signingTargetPolicyData(context.data, target) : {};
  },
  async handler(context, params) {
    const backend = context.services.chains.require(params.caip2, "parameters.caip2");
    const target = await resolveSigningTarget(context.data, context.organization.id, params.from, "parameters.from");
    let txHash = broadcasts.get(params);
    if (!txHash) {
      const signer = await signerOf(context.data, context.services, target);
      txHash = (async () => {
        const unsigned = await prepareUndelegation(backend, {
          caip2: params.caip2,
          chainId: BigInt(params.caip2.slice("eip155:".length)),
          account: params.from.toLowerCase(),
          nonce: optionalBigInt(params.nonce),
          gasLimit: optionalBigInt(params.gasLimit),
          maxFeePerGas: optionalBigInt(params.maxFeePerGas),
          maxPriorityFeePerGas: optionalBigInt(params.maxPriorityFeePerGas),
          sign: (digest) => evmDigestSignature(signer, digest),
        });
        const parsed = transactionCodec("TRANSACTION_TYPE_ETHEREUM", "parameters").parse(unsigned, "parameters");
        const signed = await parsed.sign({ ...signingIdentity(target, params.from), signer }, "parameters.from");
        return broadcastEvm(backend, params.caip2, signed, "parameters.caip2");
      })();
      broadcasts.set(params, txHash);
    }
    const sendTransactionStatusId = await recordSend(context, params.caip2, { eth: { txHash: await txHash } });
    return { sendTransactionStatusId };
  },
});
