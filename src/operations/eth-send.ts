/**
 * Sending on EVM chains the host named (engine option `chains`):
 * - `eth_send_transaction` (`ACTIVITY_TYPE_ETH_SEND_TRANSACTION`, which `@turnkey/core` sends, and `_V2` with
 *   `calls`): the nonce, EIP-1559 fees and gas limit the request leaves out are read from the chain, the
 *   EIP-1559 transaction is decided under the same `eth.tx` policies as `sign_transaction` (it is parsed by
 *   the same codec), signed with the key `from` names, broadcast, and recorded as a send status
 *   (`sendTransactionStatusId`) the tracker settles.
 * - `eth_send_raw_transaction`: broadcasts a transaction signed elsewhere.
 * - `get_nonces`: the chain nonce of an address (the pending count, the nonce its next transaction takes),
 *   and its gas station (batch) nonce on a host with a sponsor.
 *
 * Chain I/O happens inside the activity's transaction, so a refused or unreachable chain fails the activity
 * and nothing is recorded as sent; the same body again answers with that activity and reaches no chain.
 * The transaction is prepared once per request (memoized on the parsed parameters), so the decision and
 * the signature see the same nonce and fees, and a store that re-runs a transaction re-sends the same
 * signed bytes (which the node answers as already known) rather than a second transaction.
 *
 * Sponsored sends and multi-call batches go through a gas station. Policies decide them first, as every send:
 * each call is judged as its own EIP-1559 transaction from the sender with nonce and gas fields 0 (the hosted
 * service shows sponsored sends under the same `eth.tx` keywords, gas fields 0), one policy target per call.
 * An allowed sponsored send goes to the host's sponsor (engine option `gasStation`, `chains/gas-station.ts`):
 * the calls run in one transaction it pays for, through the account's EIP-7702 batch executor, within the gas
 * usage limits (`domain/gas-usage.ts`). On a host without one, and for an unsponsored batch, the handler
 * refuses it (`FAILED_PRECONDITION`, `GAS_STATION_UNAVAILABLE`). `get_nonces` answers the batch nonce.
 *
 * @module
 */
import * as v from "valibot";
import { chainFailure } from "../chains/errors.js";
import { EvmRpc } from "../chains/evm-rpc.js";
import { broadcastEvm, type EvmSendCall, prepareEvmSend, unsignedCallView } from "../chains/evm-send.js";
import type { ChainBackend } from "../chains/registry.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import {
  type ActivityContext,
  defineActivity,
  defineQuery,
  type PolicyTargetData,
  type PolicyTargets,
} from "../contract/operation.js";
import { id } from "../contract/schema.js";
import type { EngineServices } from "../contract/services.js";
import { parseHex } from "../crypto/bytes.js";
import { type ParsedTransaction, transactionCodec } from "../crypto/tx/index.js";
import { admitSponsoredSpend, recordSponsoredSpend } from "../domain/gas-usage.js";
import { evmDigestSignature, recordSend } from "../domain/sends.js";
import type { DataReader } from "../model/data.js";
import { resolveSigningTarget, type SigningTarget, signerOf, signingTargetPolicyData } from "./signing.js";
import { signingIdentity, storedInterfaces } from "./transactions.js";

/** Calls per `_V2` request (the swagger's bound). */
const MAX_CALLS = 50;
/** Largest call data, in hex characters (128 KiB of data, a node's usual transaction size bound). */
const MAX_DATA_HEX = 2 * 128 * 1024 + 2;

/** An EVM CAIP-2 chain id (`eip155:<decimal>`). */
export const caip2 = v.pipe(
  v.string(),
  v.regex(/^eip155:[1-9][0-9]{0,18}$/, "must be an EVM CAIP-2 chain id, e.g. eip155:31337"),
);
/** A `0x` 20-byte hex address, any case. */
export const address = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address"));
/** A non-negative integer in decimal (as the clients send wei amounts) or `0x` hex; at most 256 bits. */
export const uint = v.pipe(
  v.string(),
  v.regex(/^(0|[1-9][0-9]{0,77}|0x[0-9a-fA-F]{1,64})$/, "must be a non-negative integer, in decimal or 0x hex"),
  v.check((value) => BigInt(value) < 2n ** 256n, "must be below 2^256"),
);
const callData = v.pipe(
  v.string(),
  v.maxLength(MAX_DATA_HEX, "must be at most 128 KiB"),
  v.regex(/^(0x)?([0-9a-fA-F]{2})*$/, "must be hex bytes"),
);
const sendOptions = {
  from: address,
  caip2,
  sponsor: v.optional(v.boolean()),
  nonce: v.optional(uint),
  gasLimit: v.optional(uint),
  maxFeePerGas: v.optional(uint),
  maxPriorityFeePerGas: v.optional(uint),
  // Unix seconds and the account's batch nonce: sponsored and batched sends only (see gas-station.ts).
  deadline: v.optional(uint),
  gasStationNonce: v.optional(uint),
};
const callParams = v.object({ to: address, value: v.optional(uint), data: v.optional(callData) });

type SendParams = v.InferOutput<v.ObjectSchema<typeof sendOptions, undefined>> & {
  to?: string;
  value?: string;
  data?: string;
  calls?: v.InferOutput<typeof callParams>[];
};

/**
 * Whether the request goes through a gas station: a sponsored send, or a batch of several calls (which the
 * hosted service runs as one EIP-7702 batch, sponsored or not).
 */
function viaGasStation(params: SendParams): boolean {
  return params.sponsor === true || (params.calls !== undefined && params.calls.length > 1);
}

/** Every call of a request with the field it is reported under: V1's `to`/`value`/`data`, or V2's `calls`. */
function callsOf(params: SendParams): { call: EvmSendCall; field: string }[] {
  if (params.calls !== undefined) {
    return params.calls.map((call, index) => ({ call: toCall(call), field: `parameters.calls[${index}]` }));
  }
  return [{ call: toCall({ to: params.to as string, value: params.value, data: params.data }), field: "parameters" }];
}

/** The one call of a direct (unsponsored, single-call) send. */
function callOf(params: SendParams): { call: EvmSendCall; field: string } {
  return callsOf(params)[0] as { call: EvmSendCall; field: string };
}

/** The refusal of a gas station send, once policies allowed it, on a host that gives no sponsor. */
function gasStationUnavailable(params: SendParams): CustodyError {
  const sponsored = params.sponsor === true;
  return new CustodyError(
    "FAILED_PRECONDITION",
    sponsored
      ? "sponsored sends need a gas station, and this host configured no sponsor for the chain; send with sponsor: false"
      : "several calls are sent as an EIP-7702 batch through a gas station, and this host configured none for the chain; send one call per transaction",
    { field: sponsored ? "parameters.sponsor" : "parameters.calls", reason: "GAS_STATION_UNAVAILABLE" },
  );
}

function toCall(call: { to: string; value?: string | undefined; data?: string | undefined }): EvmSendCall {
  const data = call.data ?? "";
  return {
    to: call.to.toLowerCase(),
    value: BigInt(call.value ?? "0"),
    data: data.startsWith("0x") ? data : `0x${data}`,
  };
}

function optionalBigInt(value: string | undefined): bigint | undefined {
  return value === undefined ? undefined : BigInt(value);
}

/** The request's chain, or FAILED_PRECONDITION naming it. */
function backendOf(services: EngineServices | undefined, caip2Id: string): ChainBackend {
  if (!services) {
    throw new CustodyError("INTERNAL", "a send was judged without the engine's chains", { caip2: caip2Id });
  }
  return services.chains.require(caip2Id, "parameters.caip2");
}

/** A request's transaction, prepared on its chain and parsed by the `sign_transaction` codec. */
interface PreparedSend {
  parsed: ParsedTransaction;
  backend: ChainBackend;
}

// One preparation and one broadcast per parsed request (see the module comment). Weak: they go with it.
const prepared = new WeakMap<object, Promise<PreparedSend>>();
const broadcasts = new WeakMap<object, Promise<string>>();

function prepare(services: EngineServices | undefined, params: SendParams): Promise<PreparedSend> {
  let preparing = prepared.get(params);
  if (!preparing) {
    preparing = (async () => {
      const { call, field } = callOf(params);
      const backend = backendOf(services, params.caip2);
      const request = {
        caip2: params.caip2,
        chainId: BigInt(params.caip2.slice("eip155:".length)),
        from: params.from,
        call,
        nonce: optionalBigInt(params.nonce),
        gasLimit: optionalBigInt(params.gasLimit),
        maxFeePerGas: optionalBigInt(params.maxFeePerGas),
        maxPriorityFeePerGas: optionalBigInt(params.maxPriorityFeePerGas),
      };
      const { unsignedTransaction } = await prepareEvmSend(backend, request, {
        caip2: "parameters.caip2",
        from: "parameters.from",
        call: field,
      });
      const parsed = transactionCodec("TRANSACTION_TYPE_ETHEREUM", "parameters").parse(unsignedTransaction, field);
      return { parsed, backend };
    })();
    prepared.set(params, preparing);
  }
  return preparing;
}

/**
 * The policy targets of a gas station send: each call judged as its own EIP-1559 transaction from the sender
 * ({@link unsignedCallView}), one target per call, so a policy denying any call of a batch denies the batch.
 * No chain is reached: the decision comes first, and a host without a sponsor refuses only after it.
 */
async function gasStationTargets(
  data: DataReader,
  organizationId: string,
  params: SendParams,
  target: SigningTarget,
): Promise<PolicyTargets> {
  const signer = await signingTargetPolicyData(data, target);
  const chainId = BigInt(params.caip2.slice("eip155:".length));
  const targets: PolicyTargetData[] = [];
  for (const { call, field } of callsOf(params)) {
    const parsed = transactionCodec("TRANSACTION_TYPE_ETHEREUM", "parameters").parse(
      unsignedCallView(chainId, call),
      field,
    );
    const interfaces = await storedInterfaces(data, organizationId, parsed);
    targets.push({ ...signer, ...parsed.policyData({ interfaces, signer: signingIdentity(target, params.from) }) });
  }
  const [first, ...rest] = targets as [PolicyTargetData, ...PolicyTargetData[]];
  return rest.length === 0 ? first : [first, ...rest];
}

// One sponsored broadcast per parsed request, as for direct sends.
const sponsoredSends = new WeakMap<object, Promise<{ txHash: string; feeWei: bigint }>>();

/**
 * A gas station send on a host with a sponsor: the calls run in one transaction the sponsor pays for, through
 * the account's batch executor, under the account's signature; the most it costs counts against the gas usage
 * limits, and a send that would exceed them is refused before anything is broadcast.
 */
async function gasStationSend(context: ActivityContext, params: SendParams) {
  const station = context.services.gasStation;
  // An unsponsored batch would have the account pay for its own EIP-7702 transaction; only sponsors send them.
  if (!station || params.sponsor !== true || !station.sponsors(params.caip2)) throw gasStationUnavailable(params);
  const backend = backendOf(context.services, params.caip2);
  const target = await resolveSigningTarget(context.data, context.organization.id, params.from, "parameters.from");
  let sent = sponsoredSends.get(params);
  if (!sent) {
    const signer = await signerOf(context.data, context.services, target);
    sent = station.sendBatch(backend, {
      caip2: params.caip2,
      chainId: BigInt(params.caip2.slice("eip155:".length)),
      account: params.from.toLowerCase(),
      calls: callsOf(params).map(({ call }) => call),
      deadline: optionalBigInt(params.deadline),
      batchNonce: optionalBigInt(params.gasStationNonce),
      sign: async (digest) => evmDigestSignature(signer, digest),
      admit: (feeWei) =>
        admitSponsoredSpend(context.data, context.organization, context.now, station.microUsdOf(feeWei)),
    });
    sponsoredSends.set(params, sent);
  }
  const { txHash, feeWei } = await sent;
  const sendTransactionStatusId = await recordSend(context, params.caip2, { eth: { txHash } });
  const microUsd = station.microUsdOf(feeWei);
  await recordSponsoredSpend(context.data, context.organization, sendTransactionStatusId, microUsd, context.now);
  return { sendTransactionStatusId };
}

async function sendHandler(context: ActivityContext, params: SendParams) {
  if (viaGasStation(params)) return gasStationSend(context, params);
  const { parsed, backend } = await prepare(context.services, params);
  const target = await resolveSigningTarget(context.data, context.organization.id, params.from, "parameters.from");
  let txHash = broadcasts.get(params);
  if (!txHash) {
    const signed = await parsed.sign(
      { ...signingIdentity(target, params.from), signer: await signerOf(context.data, context.services, target) },
      "parameters.from",
    );
    txHash = broadcastEvm(backend, params.caip2, signed, "parameters.caip2");
    broadcasts.set(params, txHash);
  }
  const sendTransactionStatusId = await recordSend(context, params.caip2, { eth: { txHash: await txHash } });
  return { sendTransactionStatusId };
}

export const ethSendTransaction = defineActivity({
  method: "ethSendTransaction",
  path: "eth_send_transaction",
  versions: [
    {
      type: "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2",
      intent: "ethSendTransactionIntentV2",
      result: "ethSendTransactionResultV2",
      parameters: v.object({
        ...sendOptions,
        calls: v.pipe(
          v.array(callParams),
          v.minLength(1, "needs at least one call"),
          v.maxLength(MAX_CALLS, `must have at most ${MAX_CALLS} calls`),
        ),
      }),
    },
    {
      type: "ACTIVITY_TYPE_ETH_SEND_TRANSACTION",
      intent: "ethSendTransactionIntent",
      result: "ethSendTransactionResult",
      parameters: v.object({ ...sendOptions, to: address, value: v.optional(uint), data: v.optional(callData) }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params): Promise<PolicyTargets> {
    // An unknown `from` shows no signer and reaches no chain; the handler reports it as NOT_FOUND.
    const target = await resolveSigningTarget(
      context.data,
      context.organization.id,
      params.from,
      "parameters.from",
    ).catch(() => undefined);
    if (!target) return {};
    if (viaGasStation(params)) return gasStationTargets(context.data, context.organization.id, params, target);
    // A read re-judging a pending send (may a voter still count?) reaches no chain: it sees the signer only.
    if (!context.services) return signingTargetPolicyData(context.data, target);
    const { parsed } = await prepare(context.services, params);
    const interfaces = await storedInterfaces(context.data, context.organization.id, parsed);
    return {
      ...(await signingTargetPolicyData(context.data, target)),
      ...parsed.policyData({ interfaces, signer: signingIdentity(target, params.from) }),
    };
  },
  handler: (context, params) => sendHandler(context, params),
});

export const ethSendRawTransaction = defineActivity({
  method: "ethSendRawTransaction",
  path: "eth_send_raw_transaction",
  versions: [
    {
      type: "ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION",
      intent: "ethSendRawTransactionIntent",
      result: "ethSendRawTransactionResult",
      parameters: v.object({
        signedTransaction: v.pipe(callData, v.minLength(1, "must not be empty")),
        caip2,
      }),
    },
  ],
  // Nothing is signed, so no policy resource of docs/spec/policy-language.md §2 applies: a policy allows it by
  // its type (`activity.type == 'ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION'`) or by a condition naming no resource.
  policy: null,
  async handler(context, params) {
    const backend = context.services.chains.require(params.caip2, "parameters.caip2");
    if (parseHex(params.signedTransaction, "parameters.signedTransaction").length === 0) {
      throw invalidArgument("parameters.signedTransaction is empty", "parameters.signedTransaction");
    }
    const transactionHash = await broadcastEvm(
      backend,
      params.caip2,
      params.signedTransaction,
      "parameters.signedTransaction",
    );
    return { transactionHash };
  },
});

export const getNonces = defineQuery({
  method: "getNonces",
  path: "get_nonces",
  request: v.object({
    organizationId: id,
    address,
    caip2,
    nonce: v.optional(v.boolean()),
    gasStationNonce: v.optional(v.boolean()),
  }),
  async handler(context, request) {
    const backend = context.services.chains.require(request.caip2, "caip2");
    const station = context.services.gasStation;
    if (request.gasStationNonce === true && !station?.sponsors(request.caip2)) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `the gas station nonce lives in the gas station's batch executor, and this host configured no sponsor for ${request.caip2}`,
        { field: "gasStationNonce", reason: "GAS_STATION_UNAVAILABLE" },
      );
    }
    try {
      return {
        ...(request.nonce === true
          ? { nonce: (await new EvmRpc(backend).pendingNonce(request.address)).toString() }
          : {}),
        ...(request.gasStationNonce === true && station
          ? { gasStationNonce: (await station.batchNonce(backend, request.address)).toString() }
          : {}),
      };
    } catch (error) {
      throw chainFailure(error, request.caip2, "read the nonce", "caip2");
    }
  },
});
