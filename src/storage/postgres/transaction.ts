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
 * Records, unique keys and listings it has read or written are remembered for the rest of the transaction.
 * Both kinds of transaction see one snapshot (SERIALIZABLE or REPEATABLE READ), so reading a row again returns
 * what it returned the first time unless this transaction wrote it, and what this transaction writes is
 * remembered as the server would return it (a listing of a collection it writes is read again). An activity
 * asks for its submitter three times, its organization and its fingerprint's key twice, and reads back the
 * activity it has just written: each a round trip saved.
 *
 * On a session that runs several statements in one query, a writer *defers* its puts: each goes to the server
 * with the next statement the transaction sends (a read it cannot answer from memory, a delete, or the COMMIT),
 * in the same query, so an activity's writes cost no round trip of their own. A deferred put cannot throw
 * {@link UniqueKeyViolation} where the caller awaits it, so its statement fails instead (`refuse_write`, see
 * `migrations.ts`) and the store runs the work again with puts sent at once, where it throws as it should
 * (see {@link isDeferredWriteRefused}).
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
  /** Collection → listing (scope and options) → its records, until the transaction writes the collection. */
  private readonly lists = new Map<string, Map<string, Promise<StoredRecord[]>>>();
  private open = true;
  private queue: Promise<unknown> = Promise.resolve();
  /** Reads asked for since the session's last statement was queued: they go to the server as one statement. */
  private batch: PendingRead[] | undefined;
  /** Deferred puts not yet handed to a statement, in call order (their values written into the text). */
  private unsent: string[] = [];

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
    /** Whether puts are deferred (the session then runs several statements sent as one query). */
    private readonly defersWrites = false,
  ) {}

  /** Whether the transaction was opened (or the opening sent): it then needs a COMMIT or a ROLLBACK. */
  get opened(): boolean {
    return this.opening === undefined;
  }

  /** Whether deferred puts wait to be sent. */
  get holdsUnsent(): boolean {
    return this.unsent.length > 0;
  }

  /** The opening not sent yet, now taken to be sent. */
  private takeOpening(): string | undefined {
    const opening = this.opening;
    this.opening = undefined;
    return opening;
  }

  /** The deferred puts not handed to a statement yet, now taken to be sent before it. */
  private takeUnsent(): string[] {
    const unsent = this.unsent;
    this.unsent = [];
    return unsent;
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
    // Reads asked for after this statement must see what it does: they start a batch of their own.
    this.batch = undefined;
    const writes = this.takeUnsent();
    try {
      return await this.inOrder(() => this.send(text, values, writes));
    } catch (error) {
      this.failure ??= error;
      throw error;
    }
  }

  /**
   * Sends the deferred puts and then `closing` (the COMMIT), in one query: the transaction's last round trip.
   * A failure is kept in {@link failure} and thrown.
   */
  async commit(closing: string): Promise<void> {
    await this.sendUnsent(closing);
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Sends the deferred puts alone, for a transaction whose work threw while some waited: a put the server
   * refuses then shows in {@link failure}, so the store can run the work again with puts that throw where
   * they are awaited (the work's error may have come from going on past such a put).
   */
  async sendDeferred(): Promise<void> {
    if (this.holdsUnsent) await this.sendUnsent();
  }

  private async sendUnsent(closing?: string): Promise<void> {
    const writes = this.takeUnsent();
    const parts = closing === undefined ? writes : [...writes, closing];
    try {
      await this.inOrder(async () => {
        const opening = this.takeOpening();
        await this.session.query((opening === undefined ? parts : [opening, ...parts]).join("; "));
      });
    } catch (error) {
      this.failure ??= error;
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
      // The puts asked for before this read go with it; those asked for after it go with a later statement.
      const writes = this.takeUnsent();
      void this.inOrder(async () => {
        if (this.batch === batch) this.batch = undefined;
        try {
          await this.runBatch(batch, writes);
        } catch (error) {
          this.failure ??= error;
          for (const each of batch) each.reject(error);
        }
      });
    });
  }

  private async runBatch(batch: readonly PendingRead[], writes: readonly string[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [PendingRead];
      only.resolve((await this.send(only.text, only.values, writes)) as unknown as ReadRow[]);
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
    const rows = await this.send(parts.join(" UNION ALL "), values, writes);
    const answers = batch.map((): ReadRow[] => []);
    for (const row of rows) answers[row.read as number]?.push(row as unknown as ReadRow);
    batch.forEach((read, n) => {
      read.resolve((answers[n] as ReadRow[]).sort((a, b) => Number(a.ord) - Number(b.ord)));
    });
  }

  /**
   * Sends a statement, after the transaction's opening and the deferred puts `writes` when there are any: then
   * in the same query, its values written into the text (a query of several statements takes none) by pg's own
   * quoting.
   */
  private async send(text: string, values: unknown[], writes: readonly string[]): Promise<Record<string, unknown>[]> {
    const opening = this.takeOpening();
    const before = opening === undefined ? writes : [opening, ...writes];
    if (before.length === 0) return (await this.session.query(text, values)).rows;
    const results = (await this.session.query([...before, inline(text, values)].join("; "))) as unknown as SqlResult[];
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
    let listings = this.lists.get(collection);
    if (listings === undefined) {
      listings = new Map();
      this.lists.set(collection, listings);
    }
    const listing = await remembered(listings, JSON.stringify([where, order, tail, ...values]), async () => {
      const rows = await this.read(
        `SELECT body, NULL::text AS held_by, row_number() OVER (ORDER BY id ${order}) AS ord
         FROM ${this.schema}.records WHERE ${where} ORDER BY id ${order}${tail}`,
        values,
      );
      return rows.map((row) => decodeRecord(row.body as string));
    });
    // A copy: the caller may sort or trim the array it gets (the records themselves are frozen).
    return [...listing];
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
    const values = [
      collection,
      record.id,
      placement.scope,
      body,
      keys.map(([index]) => index),
      keys.map(([, key]) => key),
    ];
    this.lists.delete(collection);
    if (this.defersWrites) {
      // Sent with the transaction's next statement. A held key or a move to another scope fails that statement
      // (`refuse_write`), and the store runs the work again with puts sent at once, which throw here.
      this.unsent.push(inline(`${putStatement(s)} SELECT ${s}.refuse_write() FROM refused`, values));
      this.batch = undefined;
      // Whether the put replaces a record, whose keys it no longer declares are dropped, is known only to the
      // server: keys are read again on demand.
      this.forgetKeys();
      this.remember(collection, record.id, body, keys);
      return;
    }
    const rows = await this.query(
      `${putStatement(s)}
       SELECT (SELECT replaced FROM written) AS replaced,
              (SELECT json_agg(json_build_array(index_name, key, id)) FROM held) AS held`,
      values,
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
    this.remember(collection, record.id, body, keys);
  }

  /** Remembers a put record and its keys as the server now holds them. */
  private remember(collection: string, id: string, body: string, keys: readonly [string, string][]): void {
    this.records.set(pairKey(collection, id), Promise.resolve(decodeRecord(body)));
    for (const [index, key] of keys) this.keys.set(pairKey(index, key), Promise.resolve(id));
  }

  async delete(collection: string, id: string): Promise<void> {
    this.assertOpen();
    if (holdsNul(id)) return;
    const rows = await this.query(
      `DELETE FROM ${this.schema}.records WHERE collection = $1 AND id = $2 RETURNING scope`,
      [collection, id],
    );
    this.records.set(pairKey(collection, id), Promise.resolve(undefined));
    this.lists.delete(collection);
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

/**
 * The common part of a put (see `PgTransaction.put`): the CTEs that check the keys (`held`), write the record
 * (`written`, one row saying whether it replaced one; none when a key is held or the record sits in another
 * scope), drop the keys a replaced record no longer declares and write its own, and `refused`, one row when the
 * put wrote nothing. Values: collection, id, scope, body, key index names, keys.
 */
function putStatement(s: string): string {
  return `WITH wanted AS (SELECT * FROM unnest($5::text[], $6::text[]) AS w(index_name, key)),
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
       ),
       refused AS (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM written))`;
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
