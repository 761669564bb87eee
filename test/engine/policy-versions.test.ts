/**
 * A decision keeps an organization's compiled policies with the version of its policies and reads only that
 * version while it is unchanged: a policy created, updated or deleted must still decide the very next activity,
 * whoever wrote it (this engine, another engine on the same database, a bare store as another process would),
 * and a policy written by a transaction that rolled back must never decide one, even when that transaction
 * compiled it. Alice asks for a user tag; the policies say whether she may.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compiledPolicies } from "../../src/engine/decisions/policy-set.js";
import { CustodyEngine, CustodyError, MemoryStore } from "../../src/index.js";
import { DataWriter } from "../../src/model/data.js";
import type { PolicyRecord } from "../../src/model/records.js";
import { FileStore } from "../../src/storage/file/index.js";
import { PostgresStore } from "../../src/storage/postgres/index.js";
import type {
  ClaimOptions,
  ListOptions,
  Store,
  StoreReader,
  StoreTransaction,
  TransactionOptions,
} from "../../src/storage/store.js";
import { addPolicy, organizationWithMembers } from "../support/consensus.js";
import { postgresKind, testDatabase } from "../support/postgres.js";

const MATCHING = "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'";
const NOT_MATCHING = "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'";

let tags = 0;

/** What the policies make of Alice's asking for a user tag: allowed, or the reason of the denial. */
async function aliceAsks(alice: CustodyEngine, organizationId: string): Promise<string> {
  try {
    const { activity } = await alice.createUserTag({
      organizationId,
      parameters: { userTagName: `tag ${tags++}`, userIds: [] },
    });
    return activity.status === "ACTIVITY_STATUS_COMPLETED" ? "ALLOWED" : activity.status;
  } catch (error) {
    if (error instanceof CustodyError && error.code === "PERMISSION_DENIED") return String(error.details.decision);
    throw error;
  }
}

/** Asks twice: the first decision after a change lists the policies, the second finds them compiled. */
async function twice(alice: CustodyEngine, organizationId: string): Promise<string[]> {
  return [await aliceAsks(alice, organizationId), await aliceAsks(alice, organizationId)];
}

/** A policy record as `create_policy` would store it. */
function policyRecord(organizationId: string, effect: PolicyRecord["effect"], condition: string): PolicyRecord {
  return {
    id: `policy-${randomBytes(8).toString("hex")}`,
    organizationId,
    policyName: `written straight to the store ${tags++}`,
    effect,
    condition,
    consensus: null,
    time: null,
    notes: "",
    createdAtMs: Date.now(),
    updatedAtMs: Date.now(),
  };
}

/**
 * Puts `record` and compiles the organization's policies in the same transaction (they then hold it), and rolls
 * the transaction back.
 */
async function writeAndRollBack(store: Store, record: PolicyRecord): Promise<void> {
  const rolledBack = new Error("rolled back on purpose");
  const outcome = store.transaction(async (tx) => {
    const data = new DataWriter(tx);
    await data.put("policies", record);
    const compiled = await compiledPolicies(data, record.organizationId);
    expect(compiled.map(({ policy }) => policy.policyId)).toContain(record.id);
    throw rolledBack;
  });
  await expect(outcome).rejects.toBe(rolledBack);
  expect(await store.read((reader) => reader.get("policies", record.id))).toBeUndefined();
}

/**
 * Every step changes the policies one way and Alice asks twice after it; each step's answer differs from the
 * one before, so a decision judged by the policies of the step before would show.
 */
async function runSteps(
  writer: CustodyEngine,
  alice: () => CustodyEngine,
  organizationId: string,
  aliceId: string,
): Promise<void> {
  expect(await twice(alice(), organizationId)).toEqual(["IMPLICIT_DENY", "IMPLICIT_DENY"]);
  const allow = await addPolicy(writer, organizationId, {
    policyName: "alice tags",
    effect: "EFFECT_ALLOW",
    condition: MATCHING,
    consensus: `approvers.any(user, user.id == '${aliceId}')`,
  });
  expect(await twice(alice(), organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
  const deny = await addPolicy(writer, organizationId, {
    policyName: "no tags",
    effect: "EFFECT_DENY",
    condition: MATCHING,
  });
  expect(await twice(alice(), organizationId)).toEqual(["EXPLICIT_DENY", "EXPLICIT_DENY"]);
  await writer.updatePolicy({
    organizationId,
    parameters: { policyId: deny, policyCondition: NOT_MATCHING },
  });
  expect(await twice(alice(), organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
  await writer.updatePolicy({ organizationId, parameters: { policyId: deny, policyCondition: MATCHING } });
  expect(await twice(alice(), organizationId)).toEqual(["EXPLICIT_DENY", "EXPLICIT_DENY"]);
  await writer.deletePolicy({ organizationId, parameters: { policyId: deny } });
  expect(await twice(alice(), organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
  await writer.deletePolicies({ organizationId, parameters: { policyIds: [allow] } });
  expect(await twice(alice(), organizationId)).toEqual(["IMPLICIT_DENY", "IMPLICIT_DENY"]);
}

/** A store that notes the collection of every listing, over another store. */
class ListingsNoted implements Store {
  readonly listed: string[] = [];

  constructor(private readonly inner: Store) {}

  private noted<R extends StoreReader>(reader: R): R {
    const list = (collection: string, scope: string, options?: ListOptions) => {
      this.listed.push(collection);
      return reader.list(collection, scope, options);
    };
    return new Proxy(reader, {
      get: (target, name) => {
        if (name === "list") return list;
        const member = Reflect.get(target, name);
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
  }

  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.inner.transaction((tx) => work(this.noted(tx)), options);
  }

  read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T> {
    return this.inner.read((reader) => work(this.noted(reader)));
  }

  claim(collection: string, scope: string, options: ClaimOptions) {
    return this.inner.claim(collection, scope, options);
  }

  release(collection: string, ids: readonly string[], owner: string) {
    return this.inner.release(collection, ids, owner);
  }

  close() {
    return this.inner.close();
  }
}

describe("a decision under policies kept compiled (MemoryStore)", () => {
  it("is taken under a policy created, updated or deleted just before", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["alice"]);
    await runSteps(root, () => members.alice.as, organizationId, members.alice.userId);
  });

  it("never uses policies compiled in a transaction that rolled back", async () => {
    const { engine, root, organizationId, members } = await organizationWithMembers(["alice"]);
    await addPolicy(root, organizationId, {
      policyName: "alice tags",
      effect: "EFFECT_ALLOW",
      condition: MATCHING,
      consensus: `approvers.any(user, user.id == '${members.alice.userId}')`,
    });
    expect(await twice(members.alice.as, organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
    await writeAndRollBack(engine.store, policyRecord(organizationId, "EFFECT_DENY", MATCHING));
    expect(await twice(members.alice.as, organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
  });

  it("lists no policy while they are unchanged, and lists them again after a change", async () => {
    const store = new ListingsNoted(new MemoryStore());
    const { root, organizationId, members } = await organizationWithMembers(["alice"], { store });
    for (const n of [1, 2, 3]) {
      await addPolicy(root, organizationId, {
        policyName: `policy ${n}`,
        effect: "EFFECT_ALLOW",
        condition: n === 3 ? MATCHING : NOT_MATCHING,
        consensus: `approvers.any(user, user.id == '${members.alice.userId}')`,
      });
    }
    expect(await aliceAsks(members.alice.as, organizationId)).toBe("ALLOWED");
    const policyListings = () => store.listed.filter((collection) => collection === "policies").length;
    const before = policyListings();
    expect(await twice(members.alice.as, organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
    expect(policyListings()).toBe(before);
    await addPolicy(root, organizationId, { policyName: "no tags", effect: "EFFECT_DENY", condition: MATCHING });
    const afterWrite = policyListings();
    expect(await twice(members.alice.as, organizationId)).toEqual(["EXPLICIT_DENY", "EXPLICIT_DENY"]);
    expect(policyListings()).toBe(afterWrite + 1);
  });
});

describe("a decision under policies kept compiled (FileStore)", () => {
  const directories: string[] = [];
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  it("is taken under the policies the journal replays, and under one written after the reopen", async () => {
    const directory = mkdtempSync(join(tmpdir(), "custodian-policy-versions-"));
    directories.push(directory);
    const keyEncryptionKey = randomBytes(32);
    const { engine, root, rootUserId, organizationId, members } = await organizationWithMembers(["alice"], {
      store: await FileStore.open(directory),
      keyEncryptionKey,
    });
    await addPolicy(root, organizationId, {
      policyName: "alice tags",
      effect: "EFFECT_ALLOW",
      condition: MATCHING,
      consensus: `approvers.any(user, user.id == '${members.alice.userId}')`,
    });
    const deny = await addPolicy(root, organizationId, {
      policyName: "no tags",
      effect: "EFFECT_DENY",
      condition: MATCHING,
    });
    expect(await twice(members.alice.as, organizationId)).toEqual(["EXPLICIT_DENY", "EXPLICIT_DENY"]);
    await engine.close();
    await engine.store.close();

    const reopened = new CustodyEngine({ store: await FileStore.open(directory), keyEncryptionKey });
    const alice = reopened.as({ userId: members.alice.userId });
    expect(await twice(alice, organizationId)).toEqual(["EXPLICIT_DENY", "EXPLICIT_DENY"]);
    await reopened.as({ userId: rootUserId }).deletePolicy({
      organizationId,
      parameters: { policyId: deny },
    });
    expect(await twice(alice, organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
    await reopened.close();
    await reopened.store.close();
  });
});

describe(`a decision under policies kept compiled, two engines on one database (${postgresKind})`, () => {
  async function twoEngines() {
    const { connection, schema } = await testDatabase();
    const keyEncryptionKey = randomBytes(32);
    const fixture = await organizationWithMembers(["alice"], {
      store: await PostgresStore.open(connection, { schema }),
      keyEncryptionKey,
    });
    const first = fixture.engine;
    const second = new CustodyEngine({ store: await PostgresStore.open(connection, { schema }), keyEncryptionKey });
    await second.open();
    const close = async () => {
      for (const engine of [first, second]) await engine.close();
      await Promise.all([first.store.close(), second.store.close()]);
    };
    return { ...fixture, connection, schema, first, second, close };
  }

  it("is taken through one engine under a policy written just before through the other", async () => {
    const { organizationId, rootUserId, members, second, first, close } = await twoEngines();
    try {
      let asks = 0;
      // Alice asks through both engines in turn; the root user writes through the second.
      const alice = () => (asks++ % 2 === 0 ? first : second).as({ userId: members.alice.userId });
      await runSteps(second.as({ userId: rootUserId }), alice, organizationId, members.alice.userId);
    } finally {
      await close();
    }
  });

  it("is taken under a policy another store wrote, and never under one whose transaction rolled back", async () => {
    const { organizationId, root, members, connection, schema, first, close } = await twoEngines();
    const other = await PostgresStore.open(connection, { schema });
    try {
      await addPolicy(root, organizationId, {
        policyName: "alice tags",
        effect: "EFFECT_ALLOW",
        condition: MATCHING,
        consensus: `approvers.any(user, user.id == '${members.alice.userId}')`,
      });
      const alice = first.as({ userId: members.alice.userId });
      expect(await twice(alice, organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
      await writeAndRollBack(other, policyRecord(organizationId, "EFFECT_DENY", MATCHING));
      expect(await twice(alice, organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
      const deny = policyRecord(organizationId, "EFFECT_DENY", MATCHING);
      await other.transaction((tx) => new DataWriter(tx).put("policies", deny));
      expect(await twice(alice, organizationId)).toEqual(["EXPLICIT_DENY", "EXPLICIT_DENY"]);
      await other.transaction((tx) => new DataWriter(tx).delete("policies", deny.id));
      expect(await twice(alice, organizationId)).toEqual(["ALLOWED", "ALLOWED"]);
    } finally {
      await other.close();
      await close();
    }
  });
});
