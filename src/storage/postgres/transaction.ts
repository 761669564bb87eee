/**
 * Reads and writes of one PostgresStore transaction, on the session it holds.
 *
 * @module
 */

import pg from "pg";
import { CustodyError } from "../../common/errors.js";
import { assertStorable, holdsNul } from "../storable.js";
import {
  type ListOptions,
  type Placement,
  type StoredRecord,
  type StoreTransaction,
  UniqueKeyViolation,
} from "../store.js";
import type { SqlResult, SqlSession } from "./client.js";
import { decodeRecord, encodeRecord } from "./records.js";

/**
 * A reader or a writer over one session inside an open SQL transaction. It remembers the first error the
 * server reported, so the store can tell that the transaction is doomed (and perhaps worth retrying) even
 * when the work callback caught that error and went on.
 *
 * Records and unique keys it has read or written are remembered for the rest of the transaction. Both kinds
 * of transaction see one snapshot (SERIALIZABLE or REPEATABLE READ), so reading a row again returns what it
 * returned the first time unless this transaction wrote it, and what this transaction writes is remembered as
 * the server would return it. An activity asks for its submitter three times, its organization and its
 * fingerprint's key twice, and reads back the activity it has just written: each a round trip saved.
 *
 * A name holding U+0000 never reaches the server, which cannot take it as text: no record or key can hold one
 * (see `storage/storable.ts`), so a read under such a name finds nothing, as in every store.
 */
export class PgTransaction implements StoreTransaction {
  /** The first server error seen by this transaction. */
  failure: unknown;
  /** Scopes of records deleted in this transaction: putting one back must not move it to another scope. */
  private readonly deletedScopes = new Map<string, string>();
  /** `pairKey(collection, id)` → the record as this transaction last read or wrote it (undefined: none). */
  private readonly records = new Map<string, Promise<StoredRecord | undefined>>();
  /** `pairKey(index, key)` → the id holding the key as this transaction last read or wrote it. */
  private readonly keys = new Map<string, Promise<string | undefined>>();
  private open = true;
  private queue: Promise<unknown> = Promise.resolve();
  /** Reads asked for since the session's last statement was queued: they go to the server as one statement. */
  private batch: PendingRead[] | undefined;
  /** Writes asked for since the session's last statement was queued: they go to the server as one query. */
  private writes: PendingWrite[] | undefined;

  constructor(
    private readonly session: SqlSession,
    /** The quoted schema identifier. */
    private readonly schema: string,
    /**
     * What opens the transaction (BEGIN, and for a writer its locks), to send in one query with the first
     * statement: only for a session that runs several statements in one query. Without it, the caller has
     * opened the transaction already.
     */
    private opening?: string,
    /** Whether the session runs several statements sent as one query (then writes fired together share one). */
    private readonly severalStatements = false,
  ) {}

  /** Whether the transaction was opened (or the opening sent): it then needs a COMMIT or a ROLLBACK. */
  get opened(): boolean {
    return this.opening === undefined;
  }

  /** The opening not sent yet, now taken to be sent. */
  private takeOpening(): string | undefined {
    const opening = this.opening;
    this.opening = undefined;
    return opening;
  }

  private assertOpen(): void {
    if (!this.open) {
      throw new CustodyError("FAILED_PRECONDITION", "PostgresStore: the transaction has already finished", {
        reason: "TRANSACTION_FINISHED",
      });
    }
  }

  /**
   * Runs `task` when the session's earlier statements are done. One statement at a time on the session, in
   * call order: callers may fire several reads at once, and a session runs its statements one after another
   * anyway (pg 9 will refuse to queue them itself).
   */
  private inOrder<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async query(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    this.assertOpen();
    // Reads and writes asked for after this statement must see what it does: they start batches of their own.
    this.batch = undefined;
    this.writes = undefined;
    try {
      return (
        await this.inOrder(async () => {
          const opening = this.takeOpening();
          if (opening !== undefined) await this.session.query(opening);
          return this.session.query(text, values);
        })
      ).rows;
    } catch (error) {
      this.failure ??= error;
      throw error;
    }
  }

  /**
   * Runs a read (a SELECT yielding {@link ReadRow}s) with the other reads asked for before the session is free:
   * several reads fired at once (a `Promise.all`) cost one round trip. Each keeps its own rows and order.
   */
  private read(text: string, values: unknown[]): Promise<ReadRow[]> {
    this.assertOpen();
    return new Promise((resolve, reject) => {
      const read: PendingRead = { text, values, resolve, reject };
      if (this.batch !== undefined) {
        this.batch.push(read);
        return;
      }
      const batch = [read];
      this.batch = batch;
      this.writes = undefined;
      void this.inOrder(async () => {
        if (this.batch === batch) this.batch = undefined;
        try {
          await this.runBatch(batch);
        } catch (error) {
          this.failure ??= error;
          for (const each of batch) each.reject(error);
        }
      });
    });
  }

  /**
   * Runs a write statement. On a session that runs several statements in one query, writes asked for before the
   * session is free (a `Promise.all`) go in one query, in call order, each statement seeing those before it.
   */
  private write(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    if (!this.severalStatements) return this.query(text, values);
    this.assertOpen();
    return new Promise((resolve, reject) => {
      const write: PendingWrite = { text, values, resolve, reject };
      if (this.writes !== undefined) {
        this.writes.push(write);
        return;
      }
      const writes = [write];
      this.writes = writes;
      this.batch = undefined;
      void this.inOrder(async () => {
        if (this.writes === writes) this.writes = undefined;
        try {
          await this.runWrites(writes);
        } catch (error) {
          this.failure ??= error;
          for (const each of writes) each.reject(error);
        }
      });
    });
  }

  private async runWrites(writes: readonly PendingWrite[]): Promise<void> {
    if (writes.length === 1) {
      const [only] = writes as [PendingWrite];
      only.resolve(await this.send(only.text, only.values));
      return;
    }
    const texts = writes.map((write) => inline(write.text, write.values));
    const opening = this.takeOpening();
    const results = (await this.session.query(
      (opening === undefined ? texts : [opening, ...texts]).join("; "),
    )) as unknown as SqlResult[];
    const own = results.slice(results.length - writes.length);
    writes.forEach((write, n) => {
      write.resolve((own[n] as SqlResult).rows);
    });
  }

  private async runBatch(batch: readonly PendingRead[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [PendingRead];
      only.resolve((await this.send(only.text, only.values)) as unknown as ReadRow[]);
      return;
    }
    // One UNION ALL of the reads, each tagged with its place in the batch, its placeholders renumbered.
    const values: unknown[] = [];
    const parts = batch.map((read, n) => {
      const offset = values.length;
      values.push(...read.values);
      const text = read.text.replace(/\$([0-9]+)/g, (_, i: string) => `$${Number(i) + offset}`);
      return `SELECT ${n} AS read, r.* FROM (${text}) AS r`;
    });
    const rows = await this.send(parts.join(" UNION ALL "), values);
    const answers = batch.map((): ReadRow[] => []);
    for (const row of rows) answers[row.read as number]?.push(row as unknown as ReadRow);
    batch.forEach((read, n) => {
      read.resolve((answers[n] as ReadRow[]).sort((a, b) => Number(a.ord) - Number(b.ord)));
    });
  }

  /**
   * Sends a read, after the transaction's opening when that is still to be sent: then in the same query, its
   * values written into the text (a query of several statements takes none) by pg's own quoting.
   */
  private async send(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    const opening = this.takeOpening();
    if (opening === undefined) return (await this.session.query(text, values)).rows;
    const results = (await this.session.query(`${opening}; ${inline(text, values)}`)) as unknown as SqlResult[];
    return (results[results.length - 1] as SqlResult).rows;
  }

  async get(collection: string, id: string): Promise<StoredRecord | undefined> {
    // Checked here too: a remembered row must not outlive its transaction.
    this.assertOpen();
    if (holdsNul(id)) return undefined;
    return remembered(this.records, pairKey(collection, id), async () => {
      const rows = await this.read(
        `SELECT body, NULL::text AS held_by, 1 AS ord FROM ${this.schema}.records WHERE collection = $1 AND id = $2`,
        [collection, id],
      );
      return rows[0] ? decodeRecord(rows[0].body as string) : undefined;
    });
  }

  async lookup(index: string, key: string): Promise<string | undefined> {
    this.assertOpen();
    if (holdsNul(key)) return undefined;
    return remembered(this.keys, pairKey(index, key), async () => {
      const rows = await this.read(
        `SELECT NULL::text AS body, id AS held_by, 1 AS ord FROM ${this.schema}.unique_keys WHERE index_name = $1 AND key = $2`,
        [index, key],
      );
      return rows[0]?.held_by ?? undefined;
    });
  }

  async list(collection: string, scope: string, options: ListOptions = {}): Promise<StoredRecord[]> {
    this.assertOpen();
    if ((options.limit !== undefined && options.limit <= 0) || holdsNul(scope)) return [];
    const values: unknown[] = [collection, scope];
    let where = "collection = $1 AND scope = $2";
    if (options.after !== undefined) {
      values.push(nulFree(options.after));
      where += ` AND id > $${values.length}`;
    }
    if (options.before !== undefined) {
      const before = nulFree(options.before);
      values.push(before);
      // Cut at a NUL, `before` itself sorts before the cursor: the bound becomes inclusive.
      where += ` AND id ${before === options.before ? "<" : "<="} $${values.length}`;
    }
    let tail = "";
    if (options.limit !== undefined && Number.isFinite(options.limit)) {
      values.push(Math.floor(options.limit));
      tail = ` LIMIT $${values.length}`;
    }
    const order = options.order === "desc" ? "DESC" : "ASC";
    const rows = await this.read(
      `SELECT body, NULL::text AS held_by, row_number() OVER (ORDER BY id ${order}) AS ord
       FROM ${this.schema}.records WHERE ${where} ORDER BY id ${order}${tail}`,
      values,
    );
    return rows.map((row) => decodeRecord(row.body as string));
  }

  async put(collection: string, record: StoredRecord, placement: Placement): Promise<void> {
    this.assertOpen();
    assertStorable("PostgresStore", collection, record, placement);
    const deletedScope = this.deletedScopes.get(pairKey(collection, record.id));
    if (deletedScope !== undefined && deletedScope !== placement.scope) {
      throw scopeMove(collection, record.id, deletedScope, placement.scope);
    }
    const keys = Object.entries(placement.keys ?? {});
    // One statement checks the keys, writes the record unless a key is held or a record with this id sits in
    // another scope, and then its keys, so a refused put leaves the transaction as it was. Keys a replaced record
    // held and no longer declares are dropped (put and delete keep the two tables together). A key held by a
    // record with this id in another collection passes to this one, as in the other stores (entries name ids).
    // Whether a record stood there comes from the insert itself (`xmax` is 0 on a row it inserted), not from a
    // read: a read of a new id would lock the end of the index where every writer inserts its own new ids, and
    // concurrent writers of other partitions would conflict there.
    const body = encodeRecord(record);
    const s = this.schema;
    const rows = await this.write(
      `WITH wanted AS (SELECT * FROM unnest($5::text[], $6::text[]) AS w(index_name, key)),
       held AS (SELECT u.index_name, u.key, u.id FROM ${s}.unique_keys AS u
                JOIN wanted AS w ON u.index_name = w.index_name AND u.key = w.key WHERE u.id <> $2),
       written AS (
         INSERT INTO ${s}.records (collection, id, scope, body)
         SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM held)
         ON CONFLICT (collection, id) DO UPDATE SET body = EXCLUDED.body, lease_owner = NULL, lease_until = NULL
         WHERE records.scope = EXCLUDED.scope
         RETURNING xmax <> 0 AS replaced
       ),
       dropped AS (
         DELETE FROM ${s}.unique_keys AS u WHERE (SELECT replaced FROM written) AND u.collection = $1 AND u.id = $2
         AND NOT EXISTS (SELECT 1 FROM wanted AS w WHERE w.index_name = u.index_name AND w.key = u.key)
       ),
       keyed AS (
         INSERT INTO ${s}.unique_keys (index_name, key, collection, id)
         SELECT index_name, key, $1, $2 FROM wanted WHERE EXISTS (SELECT 1 FROM written)
         ON CONFLICT (index_name, key) DO UPDATE SET collection = EXCLUDED.collection, id = EXCLUDED.id
       )
       SELECT (SELECT replaced FROM written) AS replaced,
              (SELECT json_agg(json_build_array(index_name, key, id)) FROM held) AS held`,
      [collection, record.id, placement.scope, body, keys.map(([index]) => index), keys.map(([, key]) => key)],
    );
    const answer = rows[0] as { replaced: boolean | null; held: [string, string, string][] | null };
    if (answer.held !== null) {
      // Reported for the first key in the order given, as the other stores check them.
      const [index, key] = keys.find(([i, k]) => answer.held?.some(([hi, hk]) => hi === i && hk === k)) ?? [];
      const holder = answer.held.find(([hi, hk]) => hi === index && hk === key) ?? answer.held[0];
      const [heldIndex, heldKey, heldBy] = holder as [string, string, string];
      throw new UniqueKeyViolation(heldIndex, heldKey, heldBy);
    }
    if (answer.replaced === null) {
      // Nothing written and no key held: the record stands in another scope (rare, so read only now).
      const prior = await this.query(`SELECT scope FROM ${s}.records WHERE collection = $1 AND id = $2`, [
        collection,
        record.id,
      ]);
      throw scopeMove(collection, record.id, String(prior[0]?.scope), placement.scope);
    }
    // Which keys named a replaced record is known only to the server: they are read again on demand.
    if (answer.replaced) this.forgetKeys();
    this.records.set(pairKey(collection, record.id), Promise.resolve(decodeRecord(body)));
    for (const [index, key] of keys) this.keys.set(pairKey(index, key), Promise.resolve(record.id));
  }

  async delete(collection: string, id: string): Promise<void> {
    this.assertOpen();
    if (holdsNul(id)) return;
    const rows = await this.query(
      `DELETE FROM ${this.schema}.records WHERE collection = $1 AND id = $2 RETURNING scope`,
      [collection, id],
    );
    this.records.set(pairKey(collection, id), Promise.resolve(undefined));
    if (!rows[0]) return;
    this.deletedScopes.set(pairKey(collection, id), rows[0].scope as string);
    this.forgetKeys();
    await this.query(`DELETE FROM ${this.schema}.unique_keys WHERE collection = $1 AND id = $2`, [collection, id]);
  }

  /**
   * Drops every remembered key before a record's keys are deleted: which keys named it is known only to the
   * server. Rare (a record replaced or deleted), and the keys are read again on demand.
   */
  private forgetKeys(): void {
    this.keys.clear();
  }

  /** Closes the transaction: later calls on it throw. */
  finish(): void {
    this.open = false;
  }
}

/** A read yields these columns, whatever it reads, so that reads can share one statement. */
interface ReadRow {
  /** A record's body (a get or a listing). */
  body: string | null;
  /** The id holding a unique key (a lookup). */
  held_by: string | null;
  /** The row's place in its read's order. */
  ord: number | string;
}

/** A read waiting for its batch to be sent. */
interface PendingRead {
  text: string;
  values: unknown[];
  resolve: (rows: ReadRow[]) => void;
  reject: (error: unknown) => void;
}

/** A write waiting for its batch to be sent. */
interface PendingWrite {
  text: string;
  values: unknown[];
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (error: unknown) => void;
}

/** `text` with its placeholders replaced by their values written as SQL (for a query of several statements). */
function inline(text: string, values: readonly unknown[]): string {
  return text.replace(/\$([0-9]+)/g, (_, n: string) => literal(values[Number(n) - 1]));
}

/**
 * A value as SQL: a whole number as it is, a string quoted by pg (which minds backslashes), an array of strings
 * as a text array.
 */
function literal(value: unknown): string {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string") return pg.escapeLiteral(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(", ")}]::text[]`;
  throw new TypeError(`PostgresStore: cannot write ${typeof value} into a statement`);
}

function scopeMove(collection: string, id: string, from: string, to: string): CustodyError {
  return new CustodyError(
    "INVALID_ARGUMENT",
    `PostgresStore: record ${collection}/${id} cannot move from scope ${from} to ${to}`,
    { field: "placement.scope", collection, id },
  );
}

/**
 * A listing cursor without its NUL and what follows. No id holds NUL, so an id sorts after `cursor` exactly when
 * it sorts after the part before the NUL, and before `cursor` exactly when it sorts before or equals that part.
 */
function nulFree(cursor: string): string {
  const at = cursor.indexOf("\u0000");
  return at < 0 ? cursor : cursor.slice(0, at);
}

/**
 * One map key for two names: a collection and an id, or an index and a key. Collection and index names hold no
 * NUL, so the pair is unambiguous.
 */
function pairKey(first: string, second: string): string {
  return `${first}\u0000${second}`;
}

/**
 * The remembered answer under `key`, or `read`'s, remembered from the moment it is asked so that two reads of
 * one row at once go to the server once. A read that fails is forgotten (its transaction is doomed anyway).
 */
function remembered<T>(memory: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  const known = memory.get(key);
  if (known !== undefined) return known;
  const reading = read();
  memory.set(key, reading);
  reading.catch(() => {
    if (memory.get(key) === reading) memory.delete(key);
  });
  return reading;
}
