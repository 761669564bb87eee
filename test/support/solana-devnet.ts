/**
 * A local Solana devnet for the send tests: `litesvm` (the Solana runtime, in this process) behind a small
 * JSON-RPC 2.0 HTTP server on a free loopback port. It answers the methods custodian's chain client and the
 * official clients (`@solana/web3.js`'s `Connection`) call on a send: `getLatestBlockhash`, `isBlockhashValid`,
 * `sendTransaction` (base64 or base58), `getSignatureStatuses`, `getTransaction`, `getBalance`,
 * `getAccountInfo`, `requestAirdrop`, `getSlot`, `getBlockHeight`, `getGenesisHash`, `getVersion`,
 * `getMinimumBalanceForRentExemption` and `getFeeForMessage`; and for the balance watcher
 * `getSignaturesForAddress` (newest first, `limit`/`before`/`until`), `getTransaction` with `encoding: "json"`
 * (the account keys, with `fee`, `pre`/`postBalances` and `pre`/`postTokenBalances` in its meta, which the shim
 * records around each execution) and `getBlock` of a slot that executed a transaction (its hash is the shim's
 * own stand-in: litesvm has no blocks).
 *
 * What a real cluster does and this shim copies: `sendTransaction` checks signatures and simulates first
 * (preflight) unless `skipPreflight`, answering a failed simulation with error -32002 and its logs; a
 * transaction is final the moment it executes (litesvm has no forks), so its status is `finalized` unless
 * the test holds confirmations back (`holdConfirmations`), when it reads `processed` until `confirmAll()`.
 * Commitments, since litesvm has none: a `processed` transaction counts as `confirmed` (what
 * `getSignaturesForAddress` and `getTransaction` at `confirmed` see), and as `finalized` unless held back;
 * `getTransaction` without a commitment reads `finalized`, as a cluster's default is.
 * The shim keeps every call it received (`calls`) so a test can count broadcasts.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58, base64 } from "@scure/base";
import { getCompiledTransactionMessageDecoder } from "@solana/transaction-messages";
import { getTransactionDecoder, getTransactionEncoder } from "@solana/transactions";
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";

/** One JSON-RPC call the shim received. */
export interface DevnetCall {
  readonly method: string;
  readonly params: unknown[];
}

export interface SolanaDevnet {
  /** The JSON-RPC endpoint, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The runtime itself, for what a test sets up directly (accounts, programs, the clock). */
  readonly svm: LiteSVM;
  /** Every call received, in order. */
  readonly calls: DevnetCall[];
  /** The signatures of the transactions that `sendTransaction` executed, in order. */
  readonly sent: string[];
  /** Credits `lamports` to `owner` (base58). */
  airdrop(owner: string, amount: bigint): void;
  /** The balance of `owner` in lamports (0 for an account that does not exist). */
  balance(owner: string): bigint;
  /** While true, executed transactions read `processed` and count no confirmations. */
  holdConfirmations: boolean;
  /** Marks every executed transaction finalized. */
  confirmAll(): void;
  /** The number of `sendTransaction` calls received (accepted or not). */
  sendCount(): number;
  close(): Promise<void>;
}

/** `TransactionErrorFieldless`, by value (litesvm's const enum has no runtime object). */
const FIELDLESS_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
];

/** The JSON form RPC nodes give a `TransactionError`: a name, or `{ Name: detail }`. */
function transactionErrorJson(failed: FailedTransactionMetadata): unknown {
  const err = failed.err();
  if (typeof err === "number") return FIELDLESS_ERRORS[err] ?? `TransactionError${err}`;
  if ("err" in err) {
    const inner = err.err();
    return { InstructionError: [err.index, typeof inner === "number" ? inner : String(inner)] };
  }
  if ("accountIndex" in err) {
    const name = err.constructor.name.replace(/^TransactionError/, "");
    return { [name]: { account_index: err.accountIndex } };
  }
  return { DuplicateInstruction: err.index };
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface Executed {
  readonly slot: bigint;
  readonly err: unknown;
  readonly logs: string[];
  readonly wire: Uint8Array;
  finalized: boolean;
  /** What the balance watcher reads: the account keys and their balances around the execution. */
  readonly balances?: ExecutedBalances;
}

/** An SPL token account's holding, as `pre`/`postTokenBalances` give it. */
interface TokenBalanceJson {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number | null; uiAmountString: string };
}

interface ExecutedBalances {
  readonly accountKeys: string[];
  /** The message header as JSON-RPC's `json` encoding names it. */
  readonly header: {
    numRequiredSignatures: number;
    numReadonlySignedAccounts: number;
    numReadonlyUnsignedAccounts: number;
  };
  readonly recentBlockhash: string;
  readonly fee: number;
  readonly preBalances: number[];
  readonly postBalances: number[];
  readonly preTokenBalances: TokenBalanceJson[];
  readonly postTokenBalances: TokenBalanceJson[];
  readonly blockTime: number;
}

const TOKEN_PROGRAMS = ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"];

/** The shim's hash of the block at `slot` (litesvm has no blocks): 32 bytes derived from the slot. */
function blockHashAt(slot: bigint): string {
  return base58.encode(sha256(new TextEncoder().encode(`solana-devnet block ${slot}`)));
}

// litesvm takes @solana/kit's branded strings; these are plain base58 addresses and integers underneath.
type SvmAddress = Parameters<LiteSVM["getBalance"]>[0];
type SvmLamports = Parameters<LiteSVM["airdrop"]>[1];
const address = (value: string) => value as SvmAddress;
const lamports = (value: bigint) => value as SvmLamports;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startSolanaDevnet(): Promise<SolanaDevnet> {
  const svm = new LiteSVM();
  const calls: DevnetCall[] = [];
  const sent: string[] = [];
  const executed = new Map<string, Executed>();
  let slot = 1n;
  let holdConfirmations = false;

  const context = () => ({ slot: Number(slot), apiVersion: "2.2.0" });
  const nextSlot = () => {
    slot += 1n;
    svm.warpToSlot(slot);
  };

  function balanceOf(owner: string): bigint {
    return svm.getBalance(address(owner)) ?? 0n;
  }

  function decodeWire(encoded: string, encoding: string): Uint8Array {
    try {
      return encoding === "base64" ? base64.decode(encoded) : base58.decode(encoded);
    } catch {
      throw new RpcError(-32602, `invalid transaction: failed to decode ${encoding} string`);
    }
  }

  function sendTransaction(encoded: string, config: Record<string, unknown>): string {
    const wire = decodeWire(encoded, typeof config.encoding === "string" ? config.encoding : "base58");
    let transaction: ReturnType<ReturnType<typeof getTransactionDecoder>["decode"]>;
    try {
      transaction = getTransactionDecoder().decode(wire);
    } catch (error) {
      throw new RpcError(-32602, `invalid transaction: ${(error as Error).message}`);
    }
    const [first] = Object.values(transaction.signatures);
    if (!first) throw new RpcError(-32602, "invalid transaction: no signatures");
    const signature = base58.encode(first);
    if (Object.values(transaction.signatures).some((value) => value === null)) {
      throw new RpcError(-32003, "Transaction signature verification failure");
    }
    if (executed.has(signature)) {
      throw new RpcError(-32002, "Transaction simulation failed: This transaction has already been processed", {
        err: "AlreadyProcessed",
        logs: [],
      });
    }
    if (config.skipPreflight !== true) {
      const simulated = svm.simulateTransaction(transaction);
      if (simulated instanceof FailedTransactionMetadata) {
        const err = transactionErrorJson(simulated);
        throw new RpcError(-32002, `Transaction simulation failed: ${JSON.stringify(err)}`, {
          err,
          logs: simulated.meta().logs(),
        });
      }
    }
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    const accountKeys = message.staticAccounts.map(String);
    const preBalances = accountKeys.map((key) => Number(balanceOf(key)));
    const preTokenBalances = tokenBalancesOf(accountKeys);
    const result = svm.sendTransaction(transaction);
    const failed = result instanceof FailedTransactionMetadata;
    const postBalances = accountKeys.map((key) => Number(balanceOf(key)));
    const meta: TransactionMetadata = failed ? result.meta() : result;
    // Without preflight a transaction that cannot even be loaded (bad blockhash, no fee payer) never lands.
    if (failed && typeof result.err() === "number") {
      const err = transactionErrorJson(result);
      if (err === "BlockhashNotFound" || err === "AlreadyProcessed" || err === "SignatureFailure") return signature;
    }
    executed.set(signature, {
      slot,
      err: failed ? transactionErrorJson(result) : null,
      logs: meta.logs(),
      wire: Uint8Array.from(getTransactionEncoder().encode(transaction)),
      finalized: !holdConfirmations,
      balances: {
        accountKeys,
        header: {
          numRequiredSignatures: message.header.numSignerAccounts,
          numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
        },
        recentBlockhash: String(message.lifetimeToken),
        // What left the accounts and went nowhere among them is the fee (litesvm burns it).
        fee: preBalances.reduce((a, b) => a + b, 0) - postBalances.reduce((a, b) => a + b, 0),
        preBalances,
        postBalances,
        preTokenBalances,
        postTokenBalances: tokenBalancesOf(accountKeys),
        blockTime: Number(svm.getClock().unixTimestamp),
      },
    });
    sent.push(signature);
    nextSlot();
    return signature;
  }

  /** The SPL token accounts among `keys`, with their mint, owner and amount (the mint's decimals read too). */
  function tokenBalancesOf(keys: readonly string[]): TokenBalanceJson[] {
    const found: TokenBalanceJson[] = [];
    for (const [accountIndex, key] of keys.entries()) {
      const account = svm.getAccount(address(key));
      if (!account.exists || !TOKEN_PROGRAMS.includes(account.programAddress) || account.data.length < 165) continue;
      const data = account.data;
      const mint = base58.encode(data.subarray(0, 32));
      const mintAccount = svm.getAccount(address(mint));
      const decimals = mintAccount.exists && mintAccount.data.length >= 82 ? (mintAccount.data[44] as number) : 0;
      const amount = new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true);
      found.push({
        accountIndex,
        mint,
        owner: base58.encode(data.subarray(32, 64)),
        programId: account.programAddress,
        uiTokenAmount: {
          amount: amount.toString(),
          decimals,
          uiAmount: Number(amount) / 10 ** decimals,
          uiAmountString: (Number(amount) / 10 ** decimals).toString(),
        },
      });
    }
    return found;
  }

  /** Whether `found` is visible at `commitment` (processed counts as confirmed: litesvm has no votes). */
  function visibleAt(found: Executed, commitment: unknown): boolean {
    return found.finalized || commitment === "confirmed" || commitment === "processed";
  }

  function signatureStatus(signature: string): unknown {
    const found = executed.get(signature);
    if (!found) return null;
    return {
      slot: Number(found.slot),
      confirmations: found.finalized ? null : 0,
      err: found.err,
      status: found.err === null ? { Ok: null } : { Err: found.err },
      confirmationStatus: found.finalized ? "finalized" : "processed",
    };
  }

  function accountInfo(owner: string, encoding: string): unknown {
    const account = svm.getAccount(address(owner));
    if (!account.exists) return null;
    return {
      lamports: Number(account.lamports),
      owner: account.programAddress,
      executable: account.executable,
      rentEpoch: 0,
      space: account.data.length,
      data: encoding === "base58" ? base58.encode(account.data) : [base64.encode(account.data), "base64"],
    };
  }

  const methods: Record<string, (params: unknown[]) => unknown> = {
    getLatestBlockhash: () => ({
      context: context(),
      value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: Number(slot) + 150 },
    }),
    isBlockhashValid: ([hash]) => ({ context: context(), value: hash === svm.latestBlockhash() }),
    sendTransaction: ([encoded, config]) => {
      if (typeof encoded !== "string") throw new RpcError(-32602, "invalid params: transaction must be a string");
      return sendTransaction(encoded, (config ?? {}) as Record<string, unknown>);
    },
    getSignatureStatuses: ([signatures]) => {
      if (!Array.isArray(signatures)) throw new RpcError(-32602, "invalid params: expected an array of signatures");
      return { context: context(), value: signatures.map((signature) => signatureStatus(String(signature))) };
    },
    getTransaction: ([signature, config]) => {
      const found = executed.get(String(signature));
      const { commitment, encoding } = (config ?? {}) as { commitment?: unknown; encoding?: unknown };
      if (!found || !visibleAt(found, commitment)) return null;
      if (encoding === "json" && found.balances) {
        const { accountKeys, header, recentBlockhash, fee, blockTime, ...balances } = found.balances;
        return {
          slot: Number(found.slot),
          blockTime,
          transaction: { signatures: [String(signature)], message: { accountKeys, header, recentBlockhash } },
          meta: {
            err: found.err,
            status: found.err === null ? { Ok: null } : { Err: found.err },
            fee,
            ...balances,
            loadedAddresses: { writable: [], readonly: [] },
            logMessages: found.logs,
          },
        };
      }
      return {
        slot: Number(found.slot),
        blockTime: null,
        transaction: [base64.encode(found.wire), "base64"],
        meta: {
          err: found.err,
          status: found.err === null ? { Ok: null } : { Err: found.err },
          logMessages: found.logs,
        },
      };
    },
    getSignaturesForAddress: ([account, config]) => {
      const { limit, before, until, commitment } = (config ?? {}) as Record<string, unknown>;
      const max = typeof limit === "number" ? limit : 1000;
      const listed: unknown[] = [];
      let started = typeof before !== "string";
      for (const [signature, found] of [...executed.entries()].reverse()) {
        if (signature === until) break;
        if (!started) {
          started = signature === before;
          continue;
        }
        if (!found.balances?.accountKeys.includes(String(account))) continue;
        if (!visibleAt(found, commitment ?? "finalized")) continue;
        if (listed.length >= max) break;
        listed.push({
          signature,
          slot: Number(found.slot),
          err: found.err,
          memo: null,
          blockTime: found.balances.blockTime,
          confirmationStatus: found.finalized ? "finalized" : "processed",
        });
      }
      return listed;
    },
    getBlock: ([requested]) => {
      const at = BigInt(Number(requested));
      const found = [...executed.values()].find((entry) => entry.slot === at && entry.balances);
      if (!found?.balances) throw new RpcError(-32009, `Slot ${at} was skipped, or missing in long-term storage`);
      return {
        blockhash: blockHashAt(at),
        previousBlockhash: blockHashAt(at - 1n),
        parentSlot: Number(at - 1n),
        blockHeight: Number(at),
        blockTime: found.balances.blockTime,
      };
    },
    getBalance: ([owner]) => ({ context: context(), value: Number(balanceOf(String(owner))) }),
    getAccountInfo: ([owner, config]) => ({
      context: context(),
      value: accountInfo(String(owner), String((config as { encoding?: string } | undefined)?.encoding ?? "base64")),
    }),
    requestAirdrop: ([owner, amount]) => {
      const result = svm.airdrop(address(String(owner)), lamports(BigInt(Number(amount))));
      if (!result || result instanceof FailedTransactionMetadata) {
        throw new RpcError(
          -32603,
          `airdrop failed: ${result ? JSON.stringify(transactionErrorJson(result)) : "no result"}`,
        );
      }
      const signature = base58.encode(result.signature());
      executed.set(signature, { slot, err: null, logs: result.logs(), wire: new Uint8Array(), finalized: true });
      nextSlot();
      return signature;
    },
    getSlot: () => Number(slot),
    getBlockHeight: () => Number(slot),
    getGenesisHash: () => "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
    getVersion: () => ({ "solana-core": "2.2.0", "feature-set": 0 }),
    getMinimumBalanceForRentExemption: ([size]) => Number(svm.minimumBalanceForRentExemption(BigInt(Number(size)))),
    getFeeForMessage: () => ({ context: context(), value: 5000 }),
  };

  function answer(request: unknown): unknown {
    const { id = null, method, params = [] } = (request ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    const handler = typeof method === "string" && Object.hasOwn(methods, method) ? methods[method] : undefined;
    calls.push({ method: String(method), params: Array.isArray(params) ? params : [] });
    if (!handler) return { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } };
    try {
      return { jsonrpc: "2.0", id, result: handler(Array.isArray(params) ? params : []) };
    } catch (error) {
      if (error instanceof RpcError) {
        return {
          jsonrpc: "2.0",
          id,
          error: {
            code: error.code,
            message: error.message,
            ...(error.data === undefined ? {} : { data: error.data }),
          },
        };
      }
      return { jsonrpc: "2.0", id, error: { code: -32603, message: (error as Error).message } };
    }
  }

  const server: Server = createServer(async (request, response) => {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
      return;
    }
    const reply = Array.isArray(body) ? body.map(answer) : answer(body);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    svm,
    calls,
    sent,
    airdrop(owner: string, amount: bigint) {
      const result = svm.airdrop(address(owner), lamports(amount));
      if (!result || result instanceof FailedTransactionMetadata) {
        throw new Error(
          `airdrop to ${owner} failed: ${result ? JSON.stringify(transactionErrorJson(result)) : "no result"}`,
        );
      }
      nextSlot();
    },
    balance: balanceOf,
    get holdConfirmations() {
      return holdConfirmations;
    },
    set holdConfirmations(value: boolean) {
      holdConfirmations = value;
    },
    confirmAll() {
      for (const entry of executed.values()) entry.finalized = true;
    },
    sendCount: () => calls.filter((call) => call.method === "sendTransaction").length,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
