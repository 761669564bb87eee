/**
 * Reads and writes of one PostgresStore transaction, on the session it holds.
 *
 * @module
 */

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
  /**
   * `pairKey(collection, id)` → the body this transaction last put there, parsed into {@link records} only if the
   * transaction reads it back (most puts are never read in their transaction). A key is in one map or the other.
   */
  private readonly written = new Map<string, string>();
  /** `pairKey(index, key)` → the id holding the key as this transaction last read or wrote it. */
  private readonly keys = new Map<string, Promise<string | undefined>>();
  /** Collection → listing (scope and options) → its records, until the transaction writes the collection. */
  private readonly lists = new Map<string, Map<string, Promise<StoredRecord[]>>>();
  private open = true;
  private queue: Promise<unknown> = Promise.resolve();
  /** Reads asked for since the session's last statement was queued: they go to the server as one statement. */
  private batch: PendingRead[] | undefined;
  /**
   * Deferred puts not yet handed to a statement, in call order: the `put_many` arguments of each (collection, id,
   * scope, key count, then index names and keys alternating) and its body.
   */
  private unsent: { put: string[]; body: string }[] = [];

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

  /**
   * The deferred puts not handed to a statement yet, now taken to be sent before it: one call of `put_many` (see
   * `migrations.ts`), its values written into the text, or nothing.
   */
  private takeUnsent(): string[] {
    const unsent = this.unsent;
    if (unsent.length === 0) return [];
    this.unsent = [];
    const bodies = unsent.map(({ body }) => quoted(body)).join(", ");
    return [`SELECT ${this.schema}.put_many(${literal(unsent.flatMap(({ put }) => put))}, ${bodies})`];
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
   * Runs a read with the other reads asked for before the session is free: several reads fired at once (a
   * `Promise.all`) cost one round trip, one call of `read_many` (see `migrations.ts`). Each keeps its own rows
   * and order.
   */
  private read(read: Read): Promise<ReadRow[]> {
    this.assertOpen();
    return new Promise((resolve, reject) => {
      const pending: PendingRead = { read, resolve, reject };
      if (this.batch !== undefined) {
        this.batch.push(pending);
        return;
      }
      const batch = [pending];
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
    const columns: (string | null)[][] = [[], [], [], [], [], []];
    for (const { read } of batch) {
      read.forEach((value, n) => {
        (columns[n] as (string | null)[]).push(value);
      });
    }
    const rows = await this.send(
      `SELECT read, body, held_by, ord FROM ${this.schema}.read_many($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      columns,
      writes,
    );
    const answers = batch.map((): ReadRow[] => []);
    for (const row of rows) answers[row.read as number]?.push(row as unknown as ReadRow);
    batch.forEach((pending, n) => {
      pending.resolve((answers[n] as ReadRow[]).sort((a, b) => Number(a.ord) - Number(b.ord)));
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
    const at = pairKey(collection, id);
    const body = this.written.get(at);
    if (body !== undefined) {
      this.written.delete(at);
      const record = Promise.resolve(decodeRecord(body));
      this.records.set(at, record);
      return record;
    }
    return remembered(this.records, at, async () => {
      const rows = await this.read(["get", collection, id, null, null, null]);
      return rows[0] ? decodeRecord(rows[0].body as string) : undefined;
    });
  }

  async lookup(index: string, key: string): Promise<string | undefined> {
    this.assertOpen();
    if (holdsNul(key)) return undefined;
    return remembered(this.keys, pairKey(index, key), async () => {
      const rows = await this.read(["lookup", index, key, null, null, null]);
      return rows[0]?.held_by ?? undefined;
    });
  }

  async list(collection: string, scope: string, options: ListOptions = {}): Promise<StoredRecord[]> {
    this.assertOpen();
    if ((options.limit !== undefined && options.limit <= 0) || holdsNul(scope)) return [];
    const after = options.after === undefined ? null : nulFree(options.after);
    let before: string | null = null;
    if (options.before !== undefined) {
      before = nulFree(options.before);
      // Cut at a NUL, `before` itself sorts before the cursor: the bound becomes inclusive, which (no id holding
      // NUL) is below `before` followed by U+0001.
      if (before !== options.before) before += "\u0001";
    }
    const limit =
      options.limit !== undefined && Number.isFinite(options.limit) ? String(Math.floor(options.limit)) : null;
    const read: Read = [options.order === "desc" ? "list desc" : "list", collection, scope, after, before, limit];
    let listings = this.lists.get(collection);
    if (listings === undefined) {
      listings = new Map();
      this.lists.set(collection, listings);
    }
    const listing = await remembered(listings, JSON.stringify(read), async () => {
      const rows = await this.read(read);
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
    // One call of `put_record`, or for deferred puts one of `put_many` (see `migrations.ts`), checks the keys,
    // writes the record unless a key is held or a record with this id sits in another scope, and then its keys,
    // so a refused put leaves the transaction as it was.
    const body = encodeRecord(record);
    this.lists.delete(collection);
    if (this.defersWrites) {
      // Sent with the transaction's next statement, in one call with the puts deferred alongside. A held key or a
      // move to another scope fails that statement (`refuse_write`), and the store runs the work again with puts
      // sent at once, which throw here.
      const put = [collection, record.id, placement.scope, String(keys.length)];
      for (const [index, key] of keys) put.push(index, key);
      this.unsent.push({ put, body });
      this.batch = undefined;
      // Whether the put replaces a record, whose keys it no longer declares are dropped, is known only to the
      // server: keys are read again on demand.
      this.forgetKeys();
      this.remember(collection, record.id, body, keys);
      return;
    }
    const values = [
      collection,
      record.id,
      placement.scope,
      body,
      keys.map(([index]) => index),
      keys.map(([, key]) => key),
    ];
    const rows = await this.query(
      `SELECT replaced, held FROM ${this.schema}.put_record(${PUT_ARGUMENTS}, false)`,
      values,
    );
    const answer = rows[0] as { replaced: boolean | null; held: string | null };
    if (answer.held !== null) {
      const held = JSON.parse(answer.held) as [string, string, string][];
      // Reported for the first key in the order given, as the other stores check them.
      const [index, key] = keys.find(([i, k]) => held.some(([hi, hk]) => hi === i && hk === k)) ?? [];
      const holder = held.find(([hi, hk]) => hi === index && hk === key) ?? held[0];
      const [heldIndex, heldKey, heldBy] = holder as [string, string, string];
      throw new UniqueKeyViolation(heldIndex, heldKey, heldBy);
    }
    if (answer.replaced === null) {
      // Nothing written and no key held: the record stands in another scope (rare, so read only now).
      const prior = await this.query(`SELECT scope FROM ${this.schema}.records WHERE collection = $1 AND id = $2`, [
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
    const at = pairKey(collection, id);
    this.records.delete(at);
    this.written.set(at, body);
    for (const [index, key] of keys) this.keys.set(pairKey(index, key), Promise.resolve(id));
  }

  async delete(collection: string, id: string): Promise<void> {
    this.assertOpen();
    if (holdsNul(id)) return;
    const rows = await this.query(
      `DELETE FROM ${this.schema}.records WHERE collection = $1 AND id = $2 RETURNING scope`,
      [collection, id],
    );
    this.written.delete(pairKey(collection, id));
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

/**
 * One read as `read_many` takes it (see `migrations.ts`): its kind (`get`, `lookup`, `list`, `list desc`), the
 * collection or index, the id, key or scope, and for a listing its cursors and limit (null when not given).
 */
type Read = [kind: string, a: string, b: string, after: string | null, before: string | null, limit: string | null];

/** A read waiting for its batch to be sent. */
interface PendingRead {
  read: Read;
  resolve: (rows: ReadRow[]) => void;
  reject: (error: unknown) => void;
}

/** The arguments of `put_record` before `deferred`: collection, id, scope, body, key index names, keys. */
const PUT_ARGUMENTS = "$1, $2, $3, $4, $5::text[], $6::text[]";

/** `text` with its placeholders replaced by their values written as SQL (for a query of several statements). */
function inline(text: string, values: readonly unknown[]): string {
  return text.replace(/\$([0-9]+)/g, (_, n: string) => literal(values[Number(n) - 1]));
}

/**
 * A string as an SQL literal, as `pg.escapeLiteral` writes it (quotes doubled; with a backslash, an `E''` literal
 * with backslashes doubled, which reads the same whatever `standard_conforming_strings` says), by whole-string
 * replacements: pg's loop adds one character at a time, about ten times as long for a record's body.
 */
function quoted(text: string): string {
  const inner = text.replace(QUOTE, "''");
  return text.includes("\\") ? ` E'${inner.replace(BACKSLASH, "\\\\")}'` : `'${inner}'`;
}

const QUOTE = /'/g;
const BACKSLASH = /\\/g;

/**
 * A value as SQL: null, a whole number as it is, a string quoted as above, an array of strings and nulls as one
 * quoted text-array literal (`'{"a",NULL}'::text[]`): the server reads that with one call of `array_in`, where
 * an `ARRAY[...]` of literals costs it a parse, analysis and constant folding of each element.
 */
function literal(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string") return quoted(value);
  if (Array.isArray(value)) return `${quoted(`{${value.map(arrayElement).join(",")}}`)}::text[]`;
  throw new TypeError(`PostgresStore: cannot write ${typeof value} into a statement`);
}

/** An element of a text-array literal: NULL, or the string double-quoted with `"` and `\` escaped by `\`. */
function arrayElement(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value !== "string") throw new TypeError(`PostgresStore: cannot write ${typeof value} into an array`);
  return ARRAY_SPECIAL_TEST.test(value) ? `"${value.replace(ARRAY_SPECIAL, "\\$&")}"` : `"${value}"`;
}

const ARRAY_SPECIAL = /["\\]/g;
const ARRAY_SPECIAL_TEST = /["\\]/;

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
