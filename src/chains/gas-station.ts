/**
 * The gas station of a host that gives a sponsor (engine option `gasStation`): a funded key of the host's
 * that pays for its users' sends, as the hosted service's gas station pays for its users'.
 *
 * A sponsored send is one transaction from the sponsor to the user's account, which delegates by EIP-7702 to
 * custodian's batch executor (`batch-executor.ts`); the executor runs the calls as the account, under the
 * account's own signature. On the first send of an account its EIP-7702 authorization (signed by the
 * account's key) rides in the same transaction (type 4); later sends are plain EIP-1559 calls. The executor is
 * deployed by the sponsor when an account first needs it on a chain, and remembered for the engine's life; an
 * account that already delegates to a copy of it (deployed by an earlier run) keeps that one.
 *
 * The sponsor's transactions are made one at a time per chain (one nonce sequence). Its key is kept in a
 * private field: it is never shown, logged or stored; the object shows only the sponsor's address.
 *
 * @module
 */
import { addr, authorization, Transaction } from "micro-eth-signer";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { type BatchCall, batchCalldata, batchDigest, delegateOf } from "./batch-executor.js";
import { BATCH_EXECUTOR_CREATION, BATCH_EXECUTOR_NONCE_SLOT, BATCH_EXECUTOR_RUNTIME } from "./batch-executor-code.js";
import { chainFailure } from "./errors.js";
import { revertDataOf, revertEntry } from "./evm-revert.js";
import { EvmRpc } from "./evm-rpc.js";
import { broadcastEvm } from "./evm-send.js";
import type { ChainBackend } from "./registry.js";
import { ChainRpcError, ChainUnreachable } from "./rpc.js";

/** The engine option `gasStation`. */
export interface GasStationOptions {
  /**
   * The sponsor's secp256k1 private key (`0x` and 64 hex digits), funded on the chains it sponsors on. Keep it
   * out of source control; custodian never shows, logs or stores it.
   */
  readonly sponsorPrivateKey: string;
  /** The CAIP-2 ids it sponsors on (each must be an `eip155` chain of `chains`). Default: every EVM chain. */
  readonly chains?: readonly string[];
  /**
   * The USD price of the chains' native token, a decimal string, which converts what the sponsor pays into
   * the USD the gas usage limits count. Default "3000".
   */
  readonly nativeTokenUsd?: string;
}

/** A signature by the account's key over a 32-byte digest. */
export interface AccountSignature {
  r: string;
  s: string;
  recoveryId: number;
}

/** One sponsored batch, as the activity asks for it. */
export interface SponsoredBatch {
  caip2: string;
  chainId: bigint;
  /** The user's account: the sender of every call. */
  account: string;
  calls: readonly BatchCall[];
  /** Unix seconds; default an hour after the latest block. */
  deadline?: bigint;
  /** The batch nonce the request expects (`gasStationNonce`); default the account's current one. */
  batchNonce?: bigint;
  /** Signs a digest with the account's key. */
  sign: (digest: Uint8Array) => Promise<AccountSignature>;
  /** Told the most the send will cost the sponsor (wei) before anything is broadcast; throws to refuse it. */
  admit: (feeWei: bigint) => Promise<void>;
}

/** Where the request's members are reported. */
const FIELDS = {
  caip2: "parameters.caip2",
  calls: "parameters.calls",
  nonce: "parameters.gasStationNonce",
  deadline: "parameters.deadline",
  from: "parameters.from",
} as const;

/** A deadline an hour past the latest block's, when the request names none. */
const DEFAULT_DEADLINE_SECONDS = 3600n;
/** How long the executor's deployment may take to be mined. */
const DEPLOYMENT_WAIT_MS = 20_000;
const DEPLOYMENT_POLL_MS = 25;

const hexQuantity = (value: bigint) => `0x${value.toString(16)}`;

function quantity(value: unknown, method: string): bigint {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ChainUnreachable(method, "the answer is not a hex quantity");
  }
  return BigInt(value);
}

/** A host's sponsor: see the module comment. */
export class GasStation {
  readonly #privateKey: string;
  /** The sponsor's address, which pays for the sponsored sends. */
  readonly sponsorAddress: string;
  readonly #chains: ReadonlySet<string> | undefined;
  /** USD per native token, in millionths of a dollar. */
  readonly microUsdPerToken: bigint;
  readonly #executors = new Map<string, Promise<string>>();
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(options: GasStationOptions) {
    const key = options.sponsorPrivateKey;
    if (typeof key !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(key) || !addr.isValidPrivateKey(key.slice(2))) {
      // The key itself is never quoted.
      throw invalidArgument(
        "gasStation.sponsorPrivateKey must be a secp256k1 private key: 0x and 64 hex digits",
        "gasStation.sponsorPrivateKey",
      );
    }
    this.#privateKey = key;
    this.sponsorAddress = addr.fromPrivateKey(key.slice(2)).toLowerCase();
    this.#chains = options.chains ? new Set(options.chains) : undefined;
    const price = options.nativeTokenUsd ?? "3000";
    const match = /^([0-9]{1,9})(?:\.([0-9]{1,6}))?$/.exec(price);
    if (!match) {
      throw invalidArgument(
        "gasStation.nativeTokenUsd must be a decimal USD amount such as 3000 or 2543.12",
        "gasStation.nativeTokenUsd",
      );
    }
    this.microUsdPerToken = BigInt(match[1] as string) * 1_000_000n + BigInt((match[2] ?? "").padEnd(6, "0"));
  }

  /** Whether it sponsors on `caip2`. */
  sponsors(caip2: string): boolean {
    return caip2.startsWith("eip155:") && (this.#chains === undefined || this.#chains.has(caip2));
  }

  /** What a log or `JSON.stringify` shows of it: the sponsor's address, never its key. */
  toJSON(): { sponsorAddress: string } {
    return { sponsorAddress: this.sponsorAddress };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `GasStation { sponsorAddress: '${this.sponsorAddress}' }`;
  }

  /** The USD cost, in millionths of a dollar, of `feeWei` of the native token (rounded up). */
  microUsdOf(feeWei: bigint): bigint {
    const scaled = feeWei * this.microUsdPerToken;
    const wei = 10n ** 18n;
    return (scaled + wei - 1n) / wei;
  }

  /** The batch nonce of `account` on a chain: the executor's counter in the account's storage (0 before any). */
  async batchNonce(backend: ChainBackend, account: string): Promise<bigint> {
    const method = "eth_getStorageAt";
    return quantity(await backend.request(method, [account, BATCH_EXECUTOR_NONCE_SLOT, "latest"]), method);
  }

  /**
   * Sends a sponsored batch: checks the account can take the executor, has the account sign the batch (and
   * its delegation, the first time), estimates the gas, lets `admit` refuse the cost, and broadcasts the
   * sponsor's transaction. Returns its hash and the most it costs the sponsor (wei).
   */
  sendBatch(backend: ChainBackend, batch: SponsoredBatch): Promise<{ txHash: string; feeWei: bigint }> {
    return this.#serial(batch.caip2, async () => {
      try {
        return await this.#sendBatch(backend, batch);
      } catch (error) {
        throw chainFailure(error, batch.caip2, "send the sponsored transaction", FIELDS.caip2);
      }
    });
  }

  async #sendBatch(backend: ChainBackend, batch: SponsoredBatch): Promise<{ txHash: string; feeWei: bigint }> {
    const rpc = new EvmRpc(backend);
    const chainId = await rpc.chainId();
    if (chainId !== batch.chainId) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `the RPC configured for ${batch.caip2} serves chain id ${chainId}, not ${batch.chainId}`,
        { field: FIELDS.caip2, reason: "CHAIN_ID_MISMATCH", caip2: batch.caip2 },
      );
    }
    const code = await rpc.code(batch.account);
    // An account already delegating to a batch executor (this engine's, or one an earlier run deployed) keeps
    // it: same code, same nonce slot. Only an account delegating to nothing needs the executor, and its
    // authorization. Only an exact designator (0xef0100 and 20 address bytes) is a delegation.
    const target = delegateOf(code);
    const delegated = target !== undefined && (await this.#isExecutor(backend, target));
    if (!delegated && code !== "0x") {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        target !== undefined
          ? `${batch.account} delegates to another contract (${target.slice(2)}) on ${batch.caip2}; undelegate it (eth_undelegate_7702) before a sponsored send`
          : `${batch.account} is a contract on ${batch.caip2}, which cannot delegate by EIP-7702`,
        { field: FIELDS.from, reason: "ACCOUNT_DELEGATED_ELSEWHERE", caip2: batch.caip2 },
      );
    }
    const nonce = await this.batchNonce(backend, batch.account);
    if (batch.batchNonce !== undefined && batch.batchNonce !== nonce) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `gasStationNonce ${batch.batchNonce} is not the account's gas station nonce on ${batch.caip2}, which is ${nonce}`,
        { field: FIELDS.nonce, reason: "GAS_STATION_NONCE_MISMATCH", caip2: batch.caip2 },
      );
    }
    const block = (await backend.request("eth_getBlockByNumber", ["latest", false])) as { timestamp?: unknown } | null;
    const now = quantity(block?.timestamp, "eth_getBlockByNumber");
    const deadline = batch.deadline ?? now + DEFAULT_DEADLINE_SECONDS;
    if (deadline < now) {
      throw new CustodyError("FAILED_PRECONDITION", `the deadline ${deadline} has passed on ${batch.caip2}`, {
        field: FIELDS.deadline,
        reason: "DEADLINE_PASSED",
      });
    }
    const digest = batchDigest({ account: batch.account, chainId, nonce, deadline, calls: batch.calls });
    const data = batchCalldata(await batch.sign(digest), deadline, batch.calls);
    const authorizationList = delegated
      ? []
      : [await this.#authorization(rpc, batch, await this.#executor(backend, batch.caip2))];
    const gas = await this.#estimate(backend, batch, data, authorizationList);
    const priority = await rpc.maxPriorityFeePerGas();
    const baseFee = await rpc.baseFee();
    // Twice the base fee leaves room for base-fee increases, as the direct sends allow.
    const maxFee = 2n * baseFee + priority;
    const feeWei = gas * maxFee;
    await batch.admit(feeWei);
    const fields = {
      chainId,
      nonce: await rpc.pendingNonce(this.sponsorAddress),
      maxPriorityFeePerGas: priority,
      maxFeePerGas: maxFee,
      gasLimit: gas,
      to: batch.account,
      value: 0n,
      data,
      accessList: [],
    };
    const transaction = authorizationList.length
      ? new Transaction("eip7702", { ...fields, authorizationList } as never, { strict: false })
      : new Transaction("eip1559", fields as never, { strict: false });
    const signed = transaction.signBy(this.#privateKey.slice(2)).toHex();
    return { txHash: await broadcastEvm(backend, batch.caip2, signed, FIELDS.caip2), feeWei };
  }

  /** The account's EIP-7702 authorization of the executor, signed by the account's key. */
  async #authorization(rpc: EvmRpc, batch: SponsoredBatch, executor: string) {
    const request = { chainId: batch.chainId, address: executor, nonce: await rpc.pendingNonce(batch.account) };
    const signature = await batch.sign(authorization.getHash(request));
    return {
      ...request,
      yParity: signature.recoveryId,
      r: BigInt(`0x${signature.r}`),
      s: BigInt(`0x${signature.s}`),
    };
  }

  /** The gas of the sponsor's transaction; a batch that would revert is refused with the revert reason. */
  async #estimate(
    backend: ChainBackend,
    batch: SponsoredBatch,
    data: string,
    authorizations: { chainId: bigint; address: string; nonce: bigint; yParity: number; r: bigint; s: bigint }[],
  ): Promise<bigint> {
    const call = {
      from: this.sponsorAddress,
      to: batch.account,
      data,
      ...(authorizations.length
        ? {
            authorizationList: authorizations.map((item) => ({
              chainId: hexQuantity(item.chainId),
              address: item.address,
              nonce: hexQuantity(item.nonce),
              yParity: hexQuantity(BigInt(item.yParity)),
              r: hexQuantity(item.r),
              s: hexQuantity(item.s),
            })),
          }
        : {}),
    };
    try {
      return quantity(await backend.request("eth_estimateGas", [call]), "eth_estimateGas");
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      const revertData = revertDataOf(error.data);
      const entry = revertEntry(batch.account, revertData);
      const reverted = error.rpcMessage.toLowerCase().includes("revert") || revertData !== undefined;
      throw new CustodyError(
        "FAILED_PRECONDITION",
        reverted
          ? `the batch would revert (${String(entry.displayMessage)}); nothing was broadcast`
          : `${batch.caip2} could not estimate the batch's gas: ${error.rpcMessage}; nothing was broadcast`,
        { field: FIELDS.calls, reason: reverted ? "TRANSACTION_REVERTS" : "GAS_ESTIMATION_FAILED", caip2: batch.caip2 },
      );
    }
  }

  /** Whether `address` holds the batch executor's code. */
  async #isExecutor(backend: ChainBackend, address: string): Promise<boolean> {
    return String(await backend.request("eth_getCode", [address, "latest"])).toLowerCase() === BATCH_EXECUTOR_RUNTIME;
  }

  /** The executor's address on `caip2`, deployed by the sponsor on first use. */
  #executor(backend: ChainBackend, caip2: string): Promise<string> {
    let executor = this.#executors.get(caip2);
    if (!executor) {
      executor = this.#deploy(backend, caip2);
      // A failed deployment is tried again by the next send.
      executor.catch(() => this.#executors.delete(caip2));
      this.#executors.set(caip2, executor);
    }
    return executor;
  }

  async #deploy(backend: ChainBackend, caip2: string): Promise<string> {
    const rpc = new EvmRpc(backend);
    const nonce = await rpc.pendingNonce(this.sponsorAddress);
    const priority = await rpc.maxPriorityFeePerGas();
    const maxFee = 2n * (await rpc.baseFee()) + priority;
    const gasLimit = quantity(
      await backend.request("eth_estimateGas", [{ from: this.sponsorAddress, data: BATCH_EXECUTOR_CREATION }]),
      "eth_estimateGas",
    );
    const creation = new Transaction(
      "eip1559",
      {
        chainId: await rpc.chainId(),
        nonce,
        maxPriorityFeePerGas: priority,
        maxFeePerGas: maxFee,
        gasLimit,
        to: "0x",
        value: 0n,
        data: BATCH_EXECUTOR_CREATION,
        accessList: [],
      } as never,
      { strict: false },
    );
    const hash = await broadcastEvm(backend, caip2, creation.signBy(this.#privateKey.slice(2)).toHex(), FIELDS.caip2);
    const address = addr.getCreateAddress(this.sponsorAddress, nonce).toLowerCase();
    for (let waited = 0; waited < DEPLOYMENT_WAIT_MS; waited += DEPLOYMENT_POLL_MS) {
      const receipt = await rpc.receipt(hash);
      if (receipt) {
        const code = String(await backend.request("eth_getCode", [address, "latest"])).toLowerCase();
        if (!receipt.success || code !== BATCH_EXECUTOR_RUNTIME) {
          throw new CustodyError("FAILED_PRECONDITION", `the sponsor could not deploy the batch executor on ${caip2}`, {
            field: FIELDS.caip2,
            reason: "GAS_STATION_DEPLOYMENT_FAILED",
            caip2,
          });
        }
        return address;
      }
      await new Promise((resolve) => setTimeout(resolve, DEPLOYMENT_POLL_MS));
    }
    throw new ChainUnreachable("eth_getTransactionReceipt", "the batch executor's deployment was not mined in time");
  }

  /** Runs `work` after the sponsor's earlier work on `caip2`: one nonce sequence, one transaction at a time. */
  #serial<T>(caip2: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(caip2) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(caip2, settled);
    void settled.then(() => {
      if (this.#queues.get(caip2) === settled) this.#queues.delete(caip2);
    });
    return next;
  }
}
