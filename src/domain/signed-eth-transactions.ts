/**
 * The Ethereum transactions the organization's `sign_transaction` activities signed that name an address as
 * sender (the activity's `signWith`) or destination, for `list_eth_transaction_history`: a client that signs
 * with custodian and broadcasts itself sees those sends in the history, with origin TURNKEY, once the chain has
 * them.
 *
 * The hash is keccak-256 of the stored `signedTransaction`; whether the chain has it is the history's question.
 * Every one considered costs a look-up on the chain per listing, so only the newest
 * {@link MAX_SIGNED_TRANSACTIONS_PER_ADDRESS} per address are: the activities are walked newest first and the
 * walk stops there, or after the newest {@link MAX_ACTIVITIES_SCANNED} activities of the organization, so a
 * listing's work is bounded however busy the organization is. Older ones still appear when the balance watcher
 * saw their transfers, as EXTERNAL.
 *
 * @module
 */
import { signedEthereumTransaction } from "../crypto/tx/index.js";
import type { DataReader } from "../model/data.js";
import { rfc3339, type TurnkeyOrigin } from "./transaction-history.js";

/** How many signed transactions of one address (the newest) a listing looks for on the chain. */
export const MAX_SIGNED_TRANSACTIONS_PER_ADDRESS = 100;

/** How many of the organization's newest activities a listing reads to find them. */
export const MAX_ACTIVITIES_SCANNED = 10_000;

const SIGN_TRANSACTION = "ACTIVITY_TYPE_SIGN_TRANSACTION_V2";
const PAGE = 500;

function recordOf(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * The newest signed Ethereum transactions of `organizationId` from or to `address` (lowercase) for the
 * configured chain `chain` (`configuredId` maps `eip155:<chain id>` to the configured id; a pre-EIP-155 one,
 * valid on any chain, counts), by transaction hash, with the signing activity as their Turnkey origin.
 */
export async function signedEthTransactions(
  data: DataReader,
  organizationId: string,
  chain: string,
  address: string,
  configuredId: (caip2: string) => string,
): Promise<Map<string, TurnkeyOrigin>> {
  const found = new Map<string, TurnkeyOrigin>();
  let before: string | undefined;
  for (let scanned = 0; scanned < MAX_ACTIVITIES_SCANNED; scanned += PAGE) {
    const page = await data.list("activities", organizationId, { order: "desc", limit: PAGE, before });
    for (const activity of page) {
      if (activity.type !== SIGN_TRANSACTION || activity.status !== "ACTIVITY_STATUS_COMPLETED") continue;
      const [parameters] = Object.values(activity.intent);
      const params = recordOf(parameters);
      if (params.type !== "TRANSACTION_TYPE_ETHEREUM") continue;
      const signed = recordOf(activity.result?.signTransactionResult).signedTransaction;
      const tx = typeof signed === "string" ? signedEthereumTransaction(signed) : undefined;
      if (tx === undefined) continue;
      if (tx.chainId !== undefined && configuredId(`eip155:${tx.chainId}`) !== chain) continue;
      const sender = typeof params.signWith === "string" && params.signWith.toLowerCase() === address;
      if (!sender && tx.to !== address) continue;
      if (!found.has(tx.hash)) {
        found.set(tx.hash, {
          sponsored: false,
          activityFingerprint: activity.fingerprint,
          submittedAt: rfc3339(activity.createdAtMs),
        });
      }
      if (found.size >= MAX_SIGNED_TRANSACTIONS_PER_ADDRESS) return found;
    }
    if (page.length < PAGE) return found;
    before = page[page.length - 1]?.id;
  }
  return found;
}
