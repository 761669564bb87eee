/**
 * What the send operations share once a transaction has left: recording it as a send status the tracker
 * settles, and the shape EVM transaction builders take an account's signature in.
 *
 * @module
 */
import type { AccountSignature } from "../chains/gas-station.js";
import { recordBroadcast, type SentTransaction } from "../chains/send-status.js";
import type { ActivityContext } from "../contract/operation.js";
import type { PreparedSigner } from "../crypto/sign/index.js";

/** Records a broadcast transaction of the activity as a send status; answers its id (`sendTransactionStatusId`). */
export function recordSend(context: ActivityContext, caip2: string, sent: SentTransaction): Promise<string> {
  return recordBroadcast(context.data, {
    id: context.newId(),
    organizationId: context.organization.id,
    activityId: context.activityId,
    fingerprint: context.fingerprint,
    caip2,
    sent,
    now: context.now,
  });
}

/** The signer's secp256k1 signature over a 32-byte digest, with the recovery id EVM transactions carry. */
export function evmDigestSignature(signer: PreparedSigner, digest: Uint8Array): AccountSignature {
  const signature = signer.sign({ kind: "digest", digest });
  return { r: signature.r, s: signature.s, recoveryId: Number.parseInt(signature.v, 16) };
}
