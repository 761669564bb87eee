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
import type { SqlSession } from "./client.js";
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

  constructor(
    private readonly session: SqlSession,
    /** The quoted schema identifier. */
    private readonly schema: string,
  ) {}

  private assertOpen(): void {
    if (!this.open) {
      throw new CustodyError("FAILED_PRECONDITION", "PostgresStore: the transaction has already finished", {
        reason: "TRANSACTION_FINISHED",
      });
    }
  }

  private async query(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    this.assertOpen();
    // One query at a time on the session, in call order: callers may fire several reads at once, and a
    // session runs its queries one after another anyway (pg 9 will refuse to queue them itself).
    const run = this.queue.then(() => this.session.query(text, values));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    try {
      return (await run).rows;
    } catch (error) {
      this.failure ??= error;
      throw error;
    }
  }

  async get(collection: string, id: string): Promise<StoredRecord | undefined> {
    // Checked here too: a remembered row must not outlive its transaction.
    this.assertOpen();
    if (holdsNul(id)) return undefined;
    return remembered(this.records, pairKey(collection, id), async () => {
      const rows = await this.query(`SELECT body FROM ${this.schema}.records WHERE collection = $1 AND id = $2`, [
        collection,
        id,
      ]);
      return rows[0] ? decodeRecord(rows[0].body as string) : undefined;
    });
  }

  async lookup(index: string, key: string): Promise<string | undefined> {
    this.assertOpen();
    if (holdsNul(key)) return undefined;
    return remembered(this.keys, pairKey(index, key), async () => {
      const rows = await this.query(`SELECT id FROM ${this.schema}.unique_keys WHERE index_name = $1 AND key = $2`, [
        index,
        key,
      ]);
      return rows[0]?.id as string | undefined;
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
    const rows = await this.query(
      `SELECT body FROM ${this.schema}.records WHERE ${where} ORDER BY id ${order}${tail}`,
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
    // Every key is checked before anything is written, so a refused put leaves the transaction usable.
    for (const [index, key] of keys) {
      const holder = await this.lookup(index, key);
      if (holder !== undefined && holder !== record.id) throw new UniqueKeyViolation(index, key, holder);
    }
    // One statement writes the record and tells what stood there before: its scope, read from the snapshot
    // the write does not change. A record in another scope is left as it was (the update's condition), and
    // the put refused. Reading the scope first would take a round trip of its own.
    const body = encodeRecord(record);
    const prior = await this.query(
      `WITH prior AS (SELECT scope FROM ${this.schema}.records WHERE collection = $1 AND id = $2),
       written AS (
         INSERT INTO ${this.schema}.records (collection, id, scope, body) VALUES ($1, $2, $3, $4)
         ON CONFLICT (collection, id) DO UPDATE SET body = EXCLUDED.body, lease_owner = NULL, lease_until = NULL
         WHERE records.scope = EXCLUDED.scope
       )
       SELECT scope FROM prior`,
      [collection, record.id, placement.scope, body],
    );
    const priorScope = prior[0]?.scope as string | undefined;
    if (priorScope !== undefined && priorScope !== placement.scope) {
      throw scopeMove(collection, record.id, priorScope, placement.scope);
    }
    // The keys a record held go with it; a record that did not exist held none (put and delete keep the two
    // tables together), so a new record skips the statement.
    if (priorScope !== undefined) {
      this.forgetKeys();
      await this.query(`DELETE FROM ${this.schema}.unique_keys WHERE collection = $1 AND id = $2`, [
        collection,
        record.id,
      ]);
    }
    this.records.set(pairKey(collection, record.id), Promise.resolve(decodeRecord(body)));
    for (const [index, key] of keys) {
      // The check above leaves one possible holder: a record with this id in another collection, whose key
      // passes to this one, as in the other stores (index entries name ids, not collections).
      await this.query(
        `INSERT INTO ${this.schema}.unique_keys (index_name, key, collection, id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (index_name, key) DO UPDATE SET collection = EXCLUDED.collection, id = EXCLUDED.id`,
        [index, key, collection, record.id],
      );
      this.keys.set(pairKey(index, key), Promise.resolve(record.id));
    }
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
