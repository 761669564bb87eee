/**
 * `sol_send_transaction` (`ACTIVITY_TYPE_SOL_SEND_TRANSACTION` with `signWith`, `_V2` with `signWiths`):
 * signs a Solana transaction with this organization's key and broadcasts it to the chain the host named for
 * `caip2` (engine option `chains`), answering with a `sendTransactionStatusId` that
 * `get_send_transaction_status` follows to INCLUDED or FAILED.
 *
 * - Policies decide it exactly as `sign_transaction` with `TRANSACTION_TYPE_SOLANA`: `solana.tx` (with stored
 *   IDLs), and `wallet`/`wallet_account` or `private_key` of the signing key. A denial stops it before the
 *   chain is asked anything.
 * - The signing keys are the one `signWith` (or each of `signWiths`) names, plus every other required signer
 *   of the message this organization holds; all of them sign. Policies judge each of those keys in its own
 *   context (the same `solana.tx`, that key's `wallet_account` or `private_key`), and the send goes ahead
 *   only if every key may sign: a deny on any one of them denies it, and a consensus one of them waits for
 *   keeps it waiting (`engine/decisions/decision.ts`). No key signs without a policy having judged it.
 * - `recentBlockhash`, when given, replaces the message's blockhash before the decision (policies see the one
 *   sent). A message whose blockhash is the all-zero placeholder gets the cluster's latest instead.
 * - A required signer left without a signature is refused before broadcasting, naming it.
 * - The node simulates before accepting (preflight): a transaction that would fail is refused with the
 *   node's error and logs (`details.solana`), and nothing is recorded. A node that does not answer fails the
 *   activity as UNAVAILABLE; the same body again replays that failure, so nothing is broadcast twice.
 * - `sponsor: true` (Turnkey's gas station) is refused: custodian holds no fee-paying account for Solana.
 *
 * `unsignedTransaction` is the whole serialized transaction (zeroed signature slots, then the message) in
 * hex, as the examples send it to both versions, or in base64, as the API description says of version 1.
 *
 * @module
 */
import { base64 } from "@scure/base";
import * as v from "valibot";
import { chainFailure } from "../chains/errors.js";
import { excerptJson, excerptLines } from "../chains/excerpt.js";
import { type ChainRegistry, caip2Namespace } from "../chains/registry.js";
import { ChainRpcError } from "../chains/rpc.js";
import { SolanaRpc } from "../chains/solana-rpc.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { defineActivity, type PolicyTargetData, type PolicyTargets } from "../contract/operation.js";
import { hexToBytes } from "../crypto/bytes.js";
import { MAX_UNSIGNED_TRANSACTION_LENGTH } from "../crypto/tx/index.js";
import {
  PLACEHOLDER_BLOCKHASH,
  parseSolanaSendable,
  type SolanaSendable,
  type SolanaSigningKey,
} from "../crypto/tx/solana.js";
import { recordSend } from "../domain/sends.js";
import type { DataReader } from "../model/data.js";
import { resolveSigningTarget, type SigningTarget, signerOf, signingTargetPolicyData } from "./signing.js";
import { signingIdentity, storedInterfaces } from "./transactions.js";

const FIELDS = {
  unsignedTransaction: "parameters.unsignedTransaction",
  signWith: "parameters.signWith",
  signWiths: "parameters.signWiths",
  caip2: "parameters.caip2",
  recentBlockhash: "parameters.recentBlockhash",
  sponsor: "parameters.sponsor",
} as const;

const address = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(64));
const common = {
  unsignedTransaction: v.pipe(
    v.string(),
    v.minLength(1, "must not be empty"),
    v.maxLength(MAX_UNSIGNED_TRANSACTION_LENGTH, `must be at most ${MAX_UNSIGNED_TRANSACTION_LENGTH} characters`),
  ),
  sponsor: v.optional(v.boolean()),
  caip2: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128)),
  recentBlockhash: v.optional(v.pipe(v.string(), v.minLength(32), v.maxLength(44))),
};

type Parameters = {
  unsignedTransaction: string;
  signWith?: string;
  signWiths?: string[];
  caip2: string;
  recentBlockhash?: string | undefined;
  sponsor?: boolean | undefined;
};

/** The hex (any case, optional `0x`) or base64 bytes of `unsignedTransaction`. */
function transactionBytes(encoded: string): Uint8Array {
  const digits = encoded.startsWith("0x") ? encoded.slice(2) : encoded;
  if (digits.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(digits)) return hexToBytes(digits);
  try {
    return base64.decode(encoded);
  } catch {
    throw invalidArgument(`${FIELDS.unsignedTransaction} is neither hex nor base64`, FIELDS.unsignedTransaction);
  }
}

/** The transaction as the request describes it: decoded, with `recentBlockhash` applied. */
function requestedTransaction(params: Parameters): SolanaSendable {
  const sendable = parseSolanaSendable(transactionBytes(params.unsignedTransaction), FIELDS.unsignedTransaction);
  return params.recentBlockhash === undefined
    ? sendable
    : sendable.withBlockhash(params.recentBlockhash, FIELDS.recentBlockhash);
}

/** The named signers, with the field that named each. */
function namedSigners(params: Parameters): { address: string; field: string }[] {
  if (params.signWiths !== undefined) {
    return params.signWiths.map((signer, index) => ({ address: signer, field: `${FIELDS.signWiths}[${index}]` }));
  }
  return [{ address: params.signWith ?? "", field: FIELDS.signWith }];
}

interface Signer {
  readonly target: SigningTarget;
  readonly named: string;
  readonly field: string;
}

/**
 * The organization's keys that sign: each named signer (NOT_FOUND when the organization holds none), then
 * every other required signer of the message it holds, once per key.
 */
async function signersOf(
  data: DataReader,
  organizationId: string,
  params: Parameters,
  sendable: SolanaSendable,
): Promise<Signer[]> {
  const signers: Signer[] = [];
  const keyOf = (target: SigningTarget) => (target.kind === "walletAccount" ? target.account.id : target.privateKey.id);
  const add = (signer: Signer) => {
    if (!signers.some((known) => keyOf(known.target) === keyOf(signer.target))) signers.push(signer);
  };
  for (const { address: named, field } of namedSigners(params)) {
    add({ target: await resolveSigningTarget(data, organizationId, named, field), named, field });
  }
  for (const required of sendable.signers) {
    const target = await resolveSigningTarget(data, organizationId, required, FIELDS.unsignedTransaction).catch(
      () => undefined,
    );
    if (target) add({ target, named: required, field: FIELDS.unsignedTransaction });
  }
  return signers;
}

/** The configured backend of `caip2`, under any of its spellings; FAILED_PRECONDITION naming it otherwise. */
function backendOf(services: { chains: ChainRegistry }, caip2: string) {
  if (caip2Namespace(caip2) !== "solana") {
    throw invalidArgument(`${FIELDS.caip2} must be a Solana CAIP-2 chain id (solana:...), got ${caip2}`, FIELDS.caip2);
  }
  const configured = services.chains.configuredId(caip2);
  return { caip2: configured, backend: services.chains.require(configured, FIELDS.caip2) };
}

/**
 * What a preflight refusal tells (swagger `v1SolanaFailureDetails`), quoted where a node could make it long:
 * the transaction error and the program logs (as much as the cluster itself keeps by default).
 */
function preflightDetails(error: ChainRpcError): Record<string, unknown> {
  const data = (error.data ?? {}) as { err?: unknown; logs?: unknown };
  return {
    source: "preflight",
    rpcCode: error.code,
    rpcMessage: error.rpcMessage,
    ...(data.err === undefined ? {} : { transactionErrorJson: excerptJson(data.err) }),
    ...(Array.isArray(data.logs) ? { logs: excerptLines(data.logs.map(logLine)) } : {}),
  };
}

/** A log entry as text: a node may send anything in the list. */
function logLine(entry: unknown): string {
  return typeof entry === "string" ? entry : excerptJson(entry);
}

const versions = [
  {
    type: "ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2",
    intent: "solSendTransactionIntentV2",
    result: "solSendTransactionResultV2",
    parameters: v.object({
      ...common,
      signWiths: v.pipe(v.array(address), v.minLength(1, "must name a signer"), v.maxLength(16)),
    }),
  },
  {
    type: "ACTIVITY_TYPE_SOL_SEND_TRANSACTION",
    intent: "solSendTransactionIntent",
    result: "solSendTransactionResult",
    parameters: v.object({ ...common, signWith: address }),
  },
] as const;

export const solSendTransaction = defineActivity({
  method: "solSendTransaction",
  path: "sol_send_transaction",
  versions,
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params): Promise<PolicyTargets> {
    const { data, organization } = context;
    const sendable = requestedTransaction(params);
    const interfaces = await storedInterfaces(data, organization.id, sendable.parsed);
    // An unknown named signer shows no key here; the handler reports it as NOT_FOUND before signing.
    const [first, ...others] = await signersOf(data, organization.id, params, sendable).catch(() => []);
    if (!first) return sendable.parsed.policyData({ interfaces });
    // One target per key that signs: each must be allowed (see the module comment).
    const targetOf = async (signer: Signer): Promise<PolicyTargetData> => ({
      ...(await signingTargetPolicyData(data, signer.target)),
      ...sendable.parsed.policyData({ interfaces, signer: signingIdentity(signer.target, signer.named) }),
    });
    if (others.length === 0) return targetOf(first);
    const targets: [PolicyTargetData, ...PolicyTargetData[]] = [await targetOf(first)];
    for (const signer of others) targets.push(await targetOf(signer));
    return targets;
  },
  async handler(context, params) {
    const { data, organization, services } = context;
    if (params.sponsor === true) {
      throw new CustodyError(
        "UNIMPLEMENTED",
        `${FIELDS.sponsor}: custodian has no Solana gas station; send with sponsor false and a fee payer this organization holds`,
        { field: FIELDS.sponsor, reason: "SPONSOR_UNSUPPORTED" },
      );
    }
    let sendable = requestedTransaction(params);
    const signers = await signersOf(data, organization.id, params, sendable);
    const { caip2, backend } = backendOf(services, params.caip2);
    const rpc = new SolanaRpc(backend);
    if (params.recentBlockhash === undefined && sendable.blockhash === PLACEHOLDER_BLOCKHASH) {
      const latest = await rpc.latestBlockhash().catch((error: unknown) => {
        throw chainFailure(error, caip2, "fetch a recent blockhash", FIELDS.caip2);
      });
      sendable = sendable.withBlockhash(latest.blockhash, FIELDS.recentBlockhash);
    }
    // The keys policyTarget showed the decision, resolved again from the same parameters and store.
    const keys: SolanaSigningKey[] = [];
    for (const { target, named, field } of signers) {
      keys.push({ ...signingIdentity(target, named), signer: await signerOf(data, services, target), field });
    }
    const { wire, signature } = sendable.sign(keys, signers[0]?.field ?? FIELDS.unsignedTransaction);
    try {
      await rpc.sendTransaction(wire);
    } catch (error) {
      const failure = chainFailure(error, caip2, "broadcast the transaction", FIELDS.unsignedTransaction);
      if (!(error instanceof ChainRpcError)) throw failure;
      throw new CustodyError(failure.code, failure.message, {
        ...failure.details,
        signature,
        solana: preflightDetails(error),
      });
    }
    const sendTransactionStatusId = await recordSend(context, caip2, { solana: { signature } });
    return { sendTransactionStatusId };
  },
});
