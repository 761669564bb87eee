/**
 * The signer pool (engine option `signerThreads`, issue 19 item 3): raw payloads signed on worker threads
 * give exactly what the calling thread gives, for every curve and for HD accounts and private keys; key
 * material crosses sealed; a thread that dies fails only what it was signing; `close()` stops every thread.
 *
 * Two engines share one store and one key-encryption key: `plain` signs on its own thread, `pooled` on two
 * signer threads, so every answer can be compared byte for byte (the signatures are deterministic: RFC 6979
 * ECDSA, RFC 8032 Ed25519, BIP340 with constant auxiliary data).
 *
 * What crosses to the threads is observed at `Worker.prototype.postMessage` (node's, not ours): every message
 * the pool posts goes through it, exactly as it is structured-cloned to the thread.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { hashMessage, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CustodyEngine, CustodyError, CustodyEngine as Engine, MemoryStore } from "../../src/index.js";
import { p256KeyPair } from "../support/engine.js";
import { niceOf, threadNiceValues } from "../support/thread-nice.js";

type SignParameters = Parameters<CustodyEngine["signRawPayload"]>[0]["parameters"];

const deliver = Worker.prototype.postMessage;
const posted = vi.spyOn(Worker.prototype, "postMessage");
const store = new MemoryStore();
const keyEncryptionKey = new Uint8Array(randomBytes(32));
const plainEngine = new Engine({ store, keyEncryptionKey });
const pooledEngine = new Engine({ store, keyEncryptionKey, signerThreads: 2, deliverWebhooks: false });

let organizationId: string;
let rootUserId: string;
let plain: CustodyEngine;
let pooled: CustodyEngine;
const signWith: Record<string, string> = {};

beforeAll(async () => {
  const rootKey = p256KeyPair();
  const created = await plainEngine.createOrganization({
    organizationName: "Pool",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "root", publicKey: rootKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
    rootQuorumThreshold: 1,
  });
  organizationId = created.organizationId;
  rootUserId = created.rootUserIds[0] as string;
  plain = plainEngine.as({ userId: rootUserId });
  pooled = pooledEngine.as({ userId: rootUserId });
  const account = <const F extends string>(
    path: string,
    curve: "CURVE_SECP256K1" | "CURVE_ED25519",
    addressFormat: F,
  ) => ({ curve, pathFormat: "PATH_FORMAT_BIP32" as const, path, addressFormat });
  const { activity: wallet } = await plain.createWallet({
    organizationId,
    parameters: {
      walletName: "hd",
      accounts: [
        account("m/44'/60'/0'/0/0", "CURVE_SECP256K1", "ADDRESS_FORMAT_ETHEREUM"),
        account("m/44'/501'/0'/0'", "CURVE_ED25519", "ADDRESS_FORMAT_SOLANA"),
        account("m/86'/0'/0'/0/0", "CURVE_SECP256K1", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"),
      ],
    },
  });
  [signWith.ethAccount, signWith.solAccount, signWith.taprootAccount] = (
    (wallet.result as Record<string, unknown>).createWalletResult as { addresses: string[] }
  ).addresses as [string, string, string];
  const { activity: keys } = await plain.createPrivateKeys({
    organizationId,
    parameters: {
      privateKeys: [
        {
          privateKeyName: "k1",
          curve: "CURVE_SECP256K1",
          privateKeyTags: [],
          addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
        },
        { privateKeyName: "ed", curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_SOLANA"] },
        { privateKeyName: "p256", curve: "CURVE_P256", privateKeyTags: [], addressFormats: [] },
      ],
    },
  });
  const [k1, ed, p256] = (
    (keys.result as Record<string, unknown>).createPrivateKeysResultV2 as {
      privateKeys: { privateKeyId: string; addresses: { address: string }[] }[];
    }
  ).privateKeys as [
    { privateKeyId: string; addresses: { address: string }[] },
    { privateKeyId: string; addresses: { address: string }[] },
    { privateKeyId: string; addresses: { address: string }[] },
  ];
  signWith.k1Address = k1.addresses[0]?.address as string;
  signWith.k1Id = k1.privateKeyId;
  signWith.edAddress = ed.addresses[0]?.address as string;
  signWith.p256Id = p256.privateKeyId;
});

afterAll(async () => {
  await plainEngine.close();
  await pooledEngine.close();
  posted.mockRestore();
});

const typedData = JSON.stringify({
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "chainId", type: "uint256" },
    ],
    Mail: [{ name: "contents", type: "string" }],
  },
  primaryType: "Mail",
  domain: { name: "pool", chainId: "1" },
  message: { contents: "hello" },
});

/** One request per curve, key kind and scheme. */
function cases(): [string, SignParameters][] {
  const digest = hashMessage("pool");
  const text = (s: string) => ({ payload: s, encoding: "PAYLOAD_ENCODING_TEXT_UTF8" as const });
  const hex = (s: string) => ({ payload: s, encoding: "PAYLOAD_ENCODING_HEXADECIMAL" as const });
  return [
    [
      "HD secp256k1, digest",
      { signWith: signWith.ethAccount as string, ...hex(digest), hashFunction: "HASH_FUNCTION_NO_OP" },
    ],
    [
      "HD secp256k1, keccak of text",
      { signWith: signWith.ethAccount as string, ...text("hi"), hashFunction: "HASH_FUNCTION_KECCAK256" },
    ],
    [
      "HD secp256k1, EIP-712",
      {
        signWith: signWith.ethAccount as string,
        payload: typedData,
        encoding: "PAYLOAD_ENCODING_EIP712",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
    ],
    [
      "HD ed25519",
      {
        signWith: signWith.solAccount as string,
        ...hex(toHex("solana")),
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      },
    ],
    [
      "HD taproot (BIP340)",
      { signWith: signWith.taprootAccount as string, ...hex(digest), hashFunction: "HASH_FUNCTION_SHA256" },
    ],
    [
      "private key secp256k1 by address",
      { signWith: signWith.k1Address as string, ...hex(digest), hashFunction: "HASH_FUNCTION_NO_OP" },
    ],
    [
      "private key secp256k1 by id",
      { signWith: signWith.k1Id as string, ...text("x"), hashFunction: "HASH_FUNCTION_SHA256" },
    ],
    [
      "private key ed25519",
      { signWith: signWith.edAddress as string, ...text("sol"), hashFunction: "HASH_FUNCTION_NOT_APPLICABLE" },
    ],
    ["private key P-256", { signWith: signWith.p256Id as string, ...text("p"), hashFunction: "HASH_FUNCTION_SHA256" }],
  ];
}

async function failure(promise: Promise<unknown>): Promise<CustodyError> {
  const error = await promise.then(
    () => new Error("expected a CustodyError, got success"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  return error as CustodyError;
}

// Threads started from source load it through tsx, which takes seconds on a busy machine: a ceiling, not a timing.
describe("signer pool", { timeout: 120_000 }, () => {
  it("signs every curve, HD accounts and private keys exactly as the calling thread does", async () => {
    for (const [name, parameters] of cases()) {
      const { activity: expected } = await plain.signRawPayload({ organizationId, parameters });
      // Several at once, so both threads sign and their caches fill concurrently.
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => pooled.signRawPayload({ organizationId, parameters })),
      );
      for (const { activity } of answers) {
        expect(activity.status, name).toBe("ACTIVITY_STATUS_COMPLETED");
        expect(activity.result, name).toEqual(expected.result);
        const { activity: stored } = await plain.getActivity({ organizationId, activityId: activity.id });
        expect(stored.result, name).toEqual(expected.result);
      }
    }
  });

  it("signs a batch in order, as the calling thread does", async () => {
    const parameters = {
      signWith: signWith.ethAccount as string,
      payloads: Array.from({ length: 20 }, (_, i) => keccak256(toHex(`payload ${i}`))),
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL" as const,
      hashFunction: "HASH_FUNCTION_NO_OP" as const,
    };
    const { activity: expected } = await plain.signRawPayloads({ organizationId, parameters });
    const { activity } = await pooled.signRawPayloads({ organizationId, parameters });
    expect(activity.result).toEqual(expected.result);
  });

  it("answers jobs that are ready together in messages of up to four, each activity with its own signatures", async () => {
    const cased = cases();
    const parameterSets = Array.from(
      { length: 10 },
      (_, i) => (cased[i % cased.length] as [string, SignParameters])[1],
    );
    const expected: unknown[] = [];
    for (const parameters of parameterSets) {
      expected.push((await plain.signRawPayload({ organizationId, parameters })).activity.result);
    }
    // A fresh engine with one thread: the ten jobs are all queued before the thread has started, so it finds
    // them together (node's worker 'message' events are what the pool receives, one per message).
    const received = vi.spyOn(Worker.prototype, "emit");
    const oneThread = new Engine({ store, keyEncryptionKey, signerThreads: 1, deliverWebhooks: false });
    try {
      const answers = await Promise.all(
        parameterSets.map((parameters) =>
          oneThread.as({ userId: rootUserId }).signRawPayload({ organizationId, parameters }),
        ),
      );
      answers.forEach(({ activity }, i) => {
        expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
        expect(activity.result).toEqual(expected[i]);
      });
      const groups = received.mock.calls
        .filter(([event, message]) => event === "message" && Array.isArray((message as { answers?: unknown }).answers))
        .map(([, message]) => (message as { answers: unknown[] }).answers.length);
      expect(groups.reduce((sum, size) => sum + size, 0)).toBe(10);
      expect(Math.max(...groups)).toBeLessThanOrEqual(4);
      expect(groups.length).toBeLessThan(10);
    } finally {
      received.mockRestore();
      await oneThread.close();
    }
  });

  it("refuses what the calling thread refuses, with the same error, and records the failure", async () => {
    const bad: SignParameters[] = [
      {
        signWith: signWith.solAccount as string,
        payload: "00",
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_SHA256",
      },
      {
        signWith: signWith.ethAccount as string,
        payload: "0x1234",
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
      {
        signWith: signWith.k1Id as string,
        payload: typedData.slice(1),
        encoding: "PAYLOAD_ENCODING_EIP712",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
      {
        signWith: "0x0000000000000000000000000000000000000000",
        payload: "00",
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_SHA256",
      },
    ];
    for (const parameters of bad) {
      const expected = await failure(plain.signRawPayload({ organizationId, parameters }));
      const error = await failure(pooled.signRawPayload({ organizationId, parameters }));
      expect([error.code, error.message, error.details.field]).toEqual([
        expected.code,
        expected.message,
        expected.details.field,
      ]);
      const { activity } = await plain.getActivity({ organizationId, activityId: error.details.activityId as string });
      expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    }
  });

  it("hands threads keys only sealed, as the store holds them, and the key-encryption key only as moved bytes", async () => {
    const messages = posted.mock.calls.map(([message]) => message as Record<string, unknown>);
    const opens = messages.filter((message) => message.type === "open");
    const signs = messages.filter((message) => message.type === "sign");
    expect(opens.length).toBeGreaterThanOrEqual(2);
    expect(signs.length).toBeGreaterThan(0);
    const stored = await store.read(async (reader) => ({
      dataKey: (await reader.get("meta", "sealing.dataKey"))?.value,
      sealed: new Set(
        [
          ...(await reader.list("wallets", organizationId)).map((wallet) => wallet.sealedMnemonic),
          ...(await reader.list("privateKeys", organizationId)).map((key) => key.sealedPrivateKey),
        ].filter((value): value is string => typeof value === "string"),
      ),
    }));
    for (const open of opens) {
      expect(open.keyEncryptionKey).toBeInstanceOf(Uint8Array);
      // Transferred, not copied: this thread's view of the buffer is detached once posted.
      expect((open.keyEncryptionKey as Uint8Array).byteLength).toBe(0);
      expect(open.wrappedDataKey).toBe(stored.dataKey);
    }
    for (const message of signs) {
      const key = message.key as Record<string, unknown>;
      expect(stored.sealed.has(key.sealed as string)).toBe(true);
      // Every string of the message accounted for: the sealed value, and names, ids, curves, paths, contexts.
      const { sealed: _sealed, ...names } = key;
      for (const value of Object.values(names)) {
        expect(typeof value).toBe("string");
        expect(value as string).toMatch(/^[A-Za-z0-9_:'/.-]{1,120}$/);
        expect((value as string).split(" ").length).toBe(1);
      }
      for (const input of message.inputs as Record<string, unknown>[]) {
        expect(Object.keys(input).sort()).toEqual(["kind", input.kind === "digest" ? "digest" : "message"].sort());
        expect(input.digest ?? input.message).toBeInstanceOf(Uint8Array);
      }
    }
  });

  it("fails only the activity a dying thread held, and signs the next ones on a fresh thread", async () => {
    const [, parameters] = cases()[0] as [string, SignParameters];
    const { activity: expected } = await plain.signRawPayload({ organizationId, parameters });
    // The next job never reaches its thread, which then dies: what a crash mid-signature looks like.
    posted.mockImplementationOnce(function (this: Worker) {
      void this.terminate();
    });
    // Either of the two concurrent activities may reach the pool first: exactly one is lost, the other signed.
    const settled = await Promise.allSettled([
      pooled.signRawPayload({ organizationId, parameters }),
      pooled.signRawPayload({ organizationId, parameters }),
    ]);
    const lost = settled.filter((outcome) => outcome.status === "rejected");
    const kept = settled.filter((outcome) => outcome.status === "fulfilled");
    expect([lost.length, kept.length]).toEqual([1, 1]);
    expect(kept[0]?.value.activity.result).toEqual(expected.result);
    const error = (lost[0] as PromiseRejectedResult).reason as CustodyError;
    expect(error).toBeInstanceOf(CustodyError);
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.details.reason).toBe("SIGNER_THREAD_STOPPED");
    expect(error.message).toMatch(/signer thread stopped/);
    const { activity: recorded } = await plain.getActivity({
      organizationId,
      activityId: error.details.activityId as string,
    });
    expect(recorded.status).toBe("ACTIVITY_STATUS_FAILED");
    const again = await Promise.all(
      Array.from({ length: 4 }, () => pooled.signRawPayload({ organizationId, parameters })),
    );
    for (const { activity } of again) expect(activity.result).toEqual(expected.result);
  });

  it("records no signature by a key deleted while a thread signed with it, and the threads forget it", async () => {
    const { activity: created } = await plain.createPrivateKeys({
      organizationId,
      parameters: {
        privateKeys: [{ privateKeyName: "doomed", curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: [] }],
      },
    });
    const privateKeyId = (
      (created.result as Record<string, unknown>).createPrivateKeysResultV2 as {
        privateKeys: { privateKeyId: string }[];
      }
    ).privateKeys[0]?.privateKeyId as string;
    // The key is deleted after the decision and before the thread gets the job.
    posted.mockImplementationOnce(function (this: Worker, message, transfer) {
      void pooled
        .deletePrivateKeys({ organizationId, parameters: { privateKeyIds: [privateKeyId], deleteWithoutExport: true } })
        .then(() => deliver.call(this, message, transfer));
    });
    const parameters: SignParameters = {
      signWith: privateKeyId,
      payload: "doomed",
      encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
      hashFunction: "HASH_FUNCTION_SHA256",
    };
    const error = await failure(pooled.signRawPayload({ organizationId, parameters }));
    expect([error.code, error.details.field]).toEqual(["NOT_FOUND", "parameters.signWith"]);
    const { activity } = await plain.getActivity({ organizationId, activityId: error.details.activityId as string });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(activity.result).toBeNull();
    const forgets = posted.mock.calls.filter(([message]) => (message as { type: string }).type === "forget");
    expect(forgets.map(([message]) => message)).toContainEqual({ type: "forget", id: privateKeyId });
  });

  it("stops every thread at close(), failing later signatures clearly", async () => {
    const engine = new Engine({ store, keyEncryptionKey, signerThreads: 1, deliverWebhooks: false });
    const view = engine.as({ userId: rootUserId });
    const [, parameters] = cases()[5] as [string, SignParameters];
    const before = posted.mock.contexts.length;
    await Promise.all([1, 2, 3].map(() => view.signRawPayload({ organizationId, parameters })));
    const threads = new Set(posted.mock.contexts.slice(before) as Worker[]);
    expect(threads.size).toBe(1);
    await engine.close();
    for (const thread of threads) expect(thread.threadId).toBe(-1);
    const error = await failure(view.signRawPayload({ organizationId, parameters }));
    expect([error.code, error.details.reason]).toEqual(["FAILED_PRECONDITION", "ENGINE_CLOSED"]);
  });

  it("signs on a thread an activity a vote completes", async () => {
    const keys = [p256KeyPair(), p256KeyPair()];
    const { activity: users } = await plain.createUsers({
      organizationId,
      parameters: {
        users: ["alice", "bob"].map((userName, i) => ({
          userName,
          apiKeys: [
            { apiKeyName: userName, publicKey: keys[i]?.publicKey as string, curveType: "API_KEY_CURVE_P256" as const },
          ],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        })),
      },
    });
    const [alice, bob] = ((users.result as Record<string, unknown>).createUsersResult as { userIds: string[] })
      .userIds as [string, string];
    await plain.createPolicy({
      organizationId,
      parameters: {
        policyName: "two approve signing",
        effect: "EFFECT_ALLOW",
        condition: "activity.action == 'SIGN'",
        consensus: "approvers.count() >= 2",
        notes: "",
      },
    });
    const [, parameters] = cases()[3] as [string, SignParameters];
    const { activity: expected } = await plain.signRawPayload({ organizationId, parameters });
    const pending = (await pooledEngine.as({ userId: alice }).signRawPayload({ organizationId, parameters })).activity;
    expect(pending.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const { activity } = await pooledEngine
      .as({ userId: bob })
      .approveActivity({ organizationId, parameters: { fingerprint: pending.fingerprint } });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.result).toEqual(expected.result);
  });
});

const count = (values: number[], nice: number) => values.filter((value) => value === nice).length;

/** An engine whose two signer threads, at `signerThreadNice`, have both signed; the caller closes it. */
async function poolThatSigned(signerThreadNice: number): Promise<Engine> {
  const engine = new Engine({ store, keyEncryptionKey, signerThreads: 2, signerThreadNice, deliverWebhooks: false });
  const view = engine.as({ userId: rootUserId });
  const [, parameters] = cases()[5] as [string, SignParameters];
  await Promise.all([1, 2, 3, 4].map(() => view.signRawPayload({ organizationId, parameters })));
  return engine;
}

describe.runIf(process.platform === "linux")("signer threads' priority", () => {
  it("runs the signer threads, and only them, at signerThreadNice", async () => {
    const ownNice = niceOf(readFileSync("/proc/thread-self/stat", "utf8"));
    const before = threadNiceValues();
    const engine = await poolThatSigned(7);
    expect(count(threadNiceValues(), 7) - count(before, 7)).toBe(2);
    expect(niceOf(readFileSync("/proc/thread-self/stat", "utf8"))).toBe(ownNice);
    await engine.close();
  });

  it("leaves them at the engine's priority with signerThreadNice 0", async () => {
    const niced = () => threadNiceValues().filter((nice) => nice !== 0).length;
    const before = niced();
    const engine = await poolThatSigned(0);
    expect(niced()).toBe(before);
    await engine.close();
  });
});

describe("the signerThreadNice option", () => {
  it.each([-1, 20, 1.5, Number.NaN, "5"])("refuses %s", (signerThreadNice) => {
    let error: unknown;
    try {
      new Engine({ signerThreads: 1, signerThreadNice: signerThreadNice as number });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).code).toBe("INVALID_ARGUMENT");
    expect((error as CustodyError).details.field).toBe("signerThreadNice");
  });
});

describe("the signerThreads option", () => {
  it.each([0, -1, 1.5, 65, Number.NaN])("refuses %s", (signerThreads) => {
    let error: unknown;
    try {
      new Engine({ signerThreads });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).code).toBe("INVALID_ARGUMENT");
    expect((error as CustodyError).details.field).toBe("signerThreads");
  });
});
