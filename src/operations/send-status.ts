/**
 * `get_send_transaction_status`: where a transaction an `*_send_transaction` activity broadcast stands
 * (`txStatus` BROADCASTED, INCLUDED or FAILED, with the hash or signature and, on failure, the error and
 * revert chain). `@turnkey/core`'s `pollTransactionStatus` polls it until INCLUDED or FAILED. The status
 * tracker (`chains/tracker.ts`) keeps the record current; this query only reads it.
 *
 * @module
 */
import * as v from "valibot";
import { renderSendStatus } from "../chains/send-status.js";
import { defineQuery } from "../contract/operation.js";
import { id } from "../contract/schema.js";

export const getSendTransactionStatus = defineQuery({
  method: "getSendTransactionStatus",
  path: "get_send_transaction_status",
  request: v.object({ organizationId: id, sendTransactionStatusId: id }),
  async handler(context, request) {
    const record = await context.data.requireInOrganization(
      "sendTransactionStatuses",
      request.sendTransactionStatusId,
      context.organization.id,
      "send transaction status",
      "sendTransactionStatusId",
    );
    return renderSendStatus(record);
  },
});
