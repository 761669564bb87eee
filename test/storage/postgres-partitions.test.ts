/**
 * PostgresStore's partitions (`TransactionOptions.partition`): writers of different organization trees run at
 * once, in one store object and across store objects (as across processes), while SERIALIZABLE and the retry
 * still decide what commits: many organizations under concurrent load lose no acknowledged write, and two trees
 * racing for one unique key end with one holder and one refusal.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { CustodyEngine } from "../../src/index.js";
import { PostgresStore } from "../../src/storage/postgres/index.js";
import { UniqueKeyViolation } from "../../src/storage/store.js";
import { p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { postgresKind, queryDatabase, serverUrl, testDatabase } from "../support/postgres.js";

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe(`PostgresStore partitions (${postgresKind})`, () => {
  it("keeps every acknowledged activity of many organization trees written at once by two engines", async () => {
    const { connection, schema } = await testDatabase();
    const keyEncryptionKey = randomBytes(32);
    const engines = [
      new CustodyEngine({ store: await PostgresStore.open(connection, { schema }), keyEncryptionKey }),
      new CustodyEngine({ store: await PostgresStore.open(connection, { schema }), keyEncryptionKey }),
    ] as const;
    await engines[0].open();
    await engines[1].open();
    // Four trees of two organizations each: a top-level one and its sub-organization.
    const organizations: { organizationId: string; userId: string }[] = [];
    for (let tree = 0; tree < 4; tree++) {
      const { organizationId, rootUserIds } = await engines[tree % 2]!.createOrganization({
        organizationName: `tree ${tree}`,
        rootUsers: [
          {
            userName: "root",
            apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
          },
        ],
      });
      const userId = rootUserIds[0] as string;
      organizations.push({ organizationId, userId });
      const { activity } = await engines[0].as({ userId }).createSubOrganization({
        organizationId,
        parameters: subOrganizationParameters(`sub ${tree}`),
      });
      const sub = activity.result!.createSubOrganizationResultV8 as {
        subOrganizationId: string;
        rootUserIds: string[];
      };
      organizations.push({ organizationId: sub.subOrganizationId, userId: sub.rootUserIds[0] as string });
    }

    // Each tag body is submitted twice at once, once through each engine: both must answer with one activity.
    const tagsPerOrganization = 8;
    const timestampMs = String(Date.now());
    const submissions = organizations.flatMap(({ organizationId, userId }) =>
      Array.from({ length: tagsPerOrganization }, (_, n) => {
        const request = {
          organizationId,
          timestampMs,
          parameters: { privateKeyTagName: `tag ${n}`, privateKeyIds: [] },
        };
        return Promise.all([
          engines[0].as({ userId }).createPrivateKeyTag(request),
          engines[1].as({ userId }).createPrivateKeyTag(request),
        ]);
      }),
    );
    const answers = await Promise.all(submissions);

    const tagIdsByOrganization = new Map<string, Set<string>>();
    for (const [first, second] of answers) {
      expect(second.activity.id).toBe(first.activity.id);
      expect(first.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const { privateKeyTagId } = first.activity.result!.createPrivateKeyTagResult as { privateKeyTagId: string };
      expect((second.activity.result!.createPrivateKeyTagResult as { privateKeyTagId: string }).privateKeyTagId).toBe(
        privateKeyTagId,
      );
      const ids = tagIdsByOrganization.get(first.activity.organizationId) ?? new Set<string>();
      ids.add(privateKeyTagId);
      tagIdsByOrganization.set(first.activity.organizationId, ids);
    }
    // Every acknowledged activity is there, as answered, and every tag it made; nothing else was written.
    for (const [index, { organizationId, userId }] of organizations.entries()) {
      const reader = engines[(index + 1) % 2]!.as({ userId });
      const { privateKeyTags } = await reader.listPrivateKeyTags({ organizationId });
      expect(new Set(privateKeyTags.map((tag) => tag.tagId))).toEqual(tagIdsByOrganization.get(organizationId));
      expect(privateKeyTags.map((tag) => tag.tagName).sort()).toEqual(
        Array.from({ length: tagsPerOrganization }, (_, n) => `tag ${n}`).sort(),
      );
      const { activities } = await reader.getActivities({ organizationId });
      const tagActivities = activities.filter((a) => a.type === "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG");
      expect(tagActivities).toHaveLength(tagsPerOrganization);
      for (const activity of tagActivities) expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    }
    for (const answer of answers) {
      const [{ activity }] = answer;
      const organization = organizations.find((o) => o.organizationId === activity.organizationId)!;
      const stored = await engines[1]
        .as({ userId: organization.userId })
        .getActivity({ organizationId: activity.organizationId, activityId: activity.id });
      expect(stored.activity.result).toEqual(activity.result);
    }
    await Promise.all(engines.map((engine) => engine.close()));
    await Promise.all(engines.map((engine) => engine.store.close()));
  });

  it.runIf(serverUrl)("runs writers of different partitions at once, in one store object and across two", async () => {
    const { connection, schema } = await testDatabase();
    const one = await PostgresStore.open(connection, { schema });
    const other = await PostgresStore.open(connection, { schema });
    for (const [first, second] of [
      [one, one],
      [one, other],
    ] as const) {
      // Each transaction waits for the other to have started: taking turns, they would wait forever.
      const started = [signal(), signal()];
      await Promise.all(
        [first, second].map((store, i) =>
          store.transaction(
            async (tx) => {
              started[i]!.resolve();
              await started[1 - i]!.promise;
              await tx.put("things", { id: `${i}-${first === second}` }, { scope: `s${i}` });
            },
            { partition: `tree ${i}` },
          ),
        ),
      );
    }
    expect(
      await one.read(async (r) => (await r.list("things", "s0")).length + (await r.list("things", "s1")).length),
    ).toBe(4);
    await Promise.all([one.close(), other.close()]);
  });

  it.runIf(serverUrl)("makes a writer with no partition wait for the partitioned ones of another process", async () => {
    const { connection, schema } = await testDatabase();
    const partitioned = await PostgresStore.open(connection, { schema });
    const whole = await PostgresStore.open(connection, { schema });
    const inside = signal();
    const finish = signal();
    const order: string[] = [];
    const holding = partitioned.transaction(
      async (tx) => {
        // A transaction takes its locks with its first statement.
        await tx.get("things", "a");
        inside.resolve();
        await finish.promise;
        await tx.put("things", { id: "a" }, { scope: "s" });
        order.push("partitioned");
      },
      { partition: "tree" },
    );
    await inside.promise;
    const waiting = whole.transaction(async (tx) => {
      // Its first statement waits for the schema's lock (a put alone would wait with the COMMIT it is sent with).
      await tx.get("things", "b");
      await tx.put("things", { id: "b" }, { scope: "s" });
      order.push("whole");
    });
    // The unpartitioned writer's session is seen waiting for the schema's lock before the other one ends.
    const watcher = new pg.Client({ connectionString: serverUrl });
    await watcher.connect();
    try {
      for (;;) {
        const { rows } = await watcher.query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        );
        if ((rows[0] as { n: number }).n > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await watcher.end();
    }
    expect(order).toEqual([]);
    finish.resolve();
    await Promise.all([holding, waiting]);
    expect(order).toEqual(["partitioned", "whole"]);
    await Promise.all([partitioned.close(), whole.close()]);
  });

  it.runIf(serverUrl)(
    "settles two trees racing for one unique key by the retry: one holds it, the other is refused",
    async () => {
      const { connection, schema } = await testDatabase();
      const stores = [
        await PostgresStore.open(connection, { schema }),
        await PostgresStore.open(connection, { schema }),
      ];
      const looked = [signal(), signal()];
      const runs = [0, 0];
      const outcomes = await Promise.allSettled(
        stores.map((store, i) =>
          store.transaction(
            async (tx) => {
              runs[i]!++;
              const holder = await tx.lookup("byName", "shared");
              // On the first run both look before either writes, so both see the key free.
              if (runs[i] === 1) {
                looked[i]!.resolve();
                await looked[1 - i]!.promise;
              }
              if (holder !== undefined) throw new UniqueKeyViolation("byName", "shared", holder);
              await tx.put("things", { id: `thing-${i}` }, { scope: `tree-${i}`, keys: { byName: "shared" } });
            },
            { partition: `tree-${i}` },
          ),
        ),
      );
      const refused = outcomes.findIndex((outcome) => outcome.status === "rejected");
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      expect(refused).toBeGreaterThanOrEqual(0);
      expect((outcomes[refused] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueKeyViolation);
      // The refused one first saw the key free: only the retry, on a snapshot with the other's commit, refused it.
      expect(runs[refused]).toBeGreaterThan(1);
      const holder = await stores[0]!.read((r) => r.lookup("byName", "shared"));
      expect(holder).toBe(`thing-${1 - refused}`);
      await Promise.all(stores.map((store) => store.close()));
    },
  );

  it.runIf(serverUrl)(
    "keeps activities, tags and unique keys consistent across 16 trees under concurrent load from three engines",
    async () => {
      const { connection, schema } = await testDatabase();
      const keyEncryptionKey = randomBytes(32);
      const engines = await Promise.all(
        [0, 1, 2].map(async () => {
          const engine = new CustodyEngine({
            store: await PostgresStore.open(connection, { schema }),
            keyEncryptionKey,
          });
          await engine.open();
          return engine;
        }),
      );
      const trees: { organizationId: string; userId: string }[] = [];
      for (let tree = 0; tree < 16; tree++) {
        const { organizationId, rootUserIds } = await engines[tree % 3]!.createOrganization({
          organizationName: `tree ${tree}`,
          rootUsers: [
            {
              userName: "root",
              apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
            },
          ],
        });
        trees.push({ organizationId, userId: rootUserIds[0] as string });
      }
      // 48 submitters, each through one engine and over every tree in turn. Each tree gets 12 names, every name
      // asked for by three submitters with different bodies: exactly one of them may create the tag.
      const namesPerTree = 12;
      const outcomes = await Promise.all(
        Array.from({ length: 48 }, async (_, lane) => {
          const engine = engines[lane % 3]!;
          const settled: { organizationId: string; name: string; activityId?: string; code?: string }[] = [];
          for (let round = 0; round < 12; round++) {
            const { organizationId, userId } = trees[(lane + round) % trees.length]!;
            const name = `tag ${(lane * 7 + round) % namesPerTree}`;
            try {
              const { activity } = await engine.as({ userId }).createPrivateKeyTag({
                organizationId,
                timestampMs: String(Date.now() + lane * 1000 + round),
                parameters: { privateKeyTagName: name, privateKeyIds: [] },
              });
              settled.push({ organizationId, name, activityId: activity.id });
            } catch (error) {
              settled.push({ organizationId, name, code: (error as { code?: string }).code });
            }
          }
          return settled;
        }),
      );
      const all = outcomes.flat();
      for (const outcome of all) if (outcome.activityId === undefined) expect(outcome.code).toBe("ALREADY_EXISTS");

      for (const { organizationId, userId } of trees) {
        const mine = all.filter((outcome) => outcome.organizationId === organizationId);
        const created = mine.filter((outcome) => outcome.activityId !== undefined);
        const reader = engines[0]!.as({ userId });
        // One tag per name asked for, made by the one submission that was answered with success.
        const { privateKeyTags } = await reader.listPrivateKeyTags({ organizationId });
        const names = privateKeyTags.map((tag) => tag.tagName).sort();
        expect(names).toEqual([...new Set(mine.map((outcome) => outcome.name))].sort());
        expect(created.map((outcome) => outcome.name).sort()).toEqual(names);
        // Every submission is one activity (completed or failed), none lost, none twice.
        const { activities } = await reader.getActivities({ organizationId, paginationOptions: { limit: "100" } });
        const tagActivities = activities.filter((a) => a.type === "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG");
        expect(tagActivities).toHaveLength(mine.length);
        expect(new Set(tagActivities.map((a) => a.id)).size).toBe(mine.length);
        const completed = tagActivities.filter((a) => a.status === "ACTIVITY_STATUS_COMPLETED").map((a) => a.id);
        expect(completed.sort()).toEqual(created.map((outcome) => outcome.activityId).sort());
      }
      // The unique index and the records agree: every key names a record that stands, every activity has its
      // fingerprint's key, and every tag its name's.
      const s = `"${schema}"`;
      expect(
        await queryDatabase(
          connection,
          `SELECT u.index_name, u.key FROM ${s}.unique_keys u
           LEFT JOIN ${s}.records r ON r.collection = u.collection AND r.id = u.id WHERE r.id IS NULL`,
        ),
      ).toEqual([]);
      expect(
        await queryDatabase(
          connection,
          `SELECT r.collection, r.id FROM ${s}.records r WHERE r.collection IN ('activities', 'tags')
           AND NOT EXISTS (SELECT 1 FROM ${s}.unique_keys u WHERE u.collection = r.collection AND u.id = r.id)`,
        ),
      ).toEqual([]);
      await Promise.all(engines.map((engine) => engine.close()));
      await Promise.all(engines.map((engine) => engine.store.close()));
    },
  );
});
