/**
 * PostgresStore: the Store interface over PostgreSQL, for several custodian instances sharing one database.
 *
 * @module
 */
import { createHash } from "node:crypto";
import pg from "pg";
import { CustodyError } from "../../common/errors.js";
import { checkClaim } from "../leases.js";
import type { ClaimOptions, Store, StoredRecord, StoreReader, StoreTransaction, TransactionOptions } from "../store.js";
import { type AvailabilityChange, connectionLossReason, Reachability } from "./availability.js";
import { type SqlPool, type SqlSession, withSession } from "./client.js";
import { migrate } from "./migrations.js";
import { decodeRecord } from "./records.js";
import { backoff, isDeferredWriteRefused, isRetryable, MAX_ATTEMPTS } from "./retry.js";
import { PgTransaction } from "./transaction.js";
import { WriterTurns } from "./turns.js";

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions {
  /**
   * The schema holding custodian's tables, created if missing (default `custodian`). Stores on different
   * schemas of one database share nothing. Lower-case letters, digits and `_`.
   */
  schema?: string;
  /** End a pool passed in when the store closes (a pool the store created from a connection string always is). */
  endPoolOnClose?: boolean;
  /**
   * Told when the database stops answering (calls then fail as `UNAVAILABLE`, HTTP 503) and when a call reaches it
   * again: once each per outage, for the host's log. It never receives the connection string.
   */
  onAvailabilityChange?: (change: AvailabilityChange) => void;
}

/**
 * A {@link Store} in PostgreSQL. Several instances (in one process or many) may share a database, and their
 * write transactions take effect as in some one-at-a-time order.
 *
 * Write transactions of one partition (`TransactionOptions.partition`: the engine names the organization tree)
 * take turns, in the process (a queue per partition) and across processes (a session advisory lock on the
 * schema and partition, taken before the transaction's snapshot, so each sees the commits of those before it):
 * they run one after another, as serially as can be. Writers of different partitions run at once, at
 * REPEATABLE READ: each reads its own partition's records, which no concurrent writer changes, and where two do
 * meet they conflict and are retried: a row both write (the second fails to update it), or a unique key both
 * take (the table's primary key lets one have it; the other's retry finds it held). SERIALIZABLE would add
 * nothing for such writers but conflicts of its own: it tracks reads by index page, and writers of different
 * partitions share pages. A write with no partition runs alone, at SERIALIZABLE: it takes the schema's writer
 * lock exclusively, which partitioned writers hold shared, and a partitioned write that conflicts three times
 * runs alone too. A partitioned transaction that reads another partition's records while that one's writers
 * change them is therefore not guaranteed serializable (two such may each act on what the other changes);
 * the engine's partitions are organization trees, and an activity reads only its own tree's records. A lock
 * belongs to its session, so a process that dies mid-transaction releases it with its connection. Reads and
 * claims take no turn.
 *
 * Open it with {@link PostgresStore.open}, from a connection string (the store then owns its `pg.Pool` and
 * ends it on close) or from a pool you own: a `pg.Pool`, or anything with the {@link SqlPool} shape.
 *
 * While the database cannot be reached (refused or lost connections, a connection not made within 5 s on a
 * pool the store owns) every call fails with `storeUnavailable` (`UNAVAILABLE`, HTTP 503, gRPC 14) and nothing
 * is written; `onAvailabilityChange` hears when the outage begins and ends. A pool you pass in must add an
 * `error` listener to its sessions (a `pg.Pool` emits `error` on a checked-out client whose connection drops),
 * and bounds its own connection time.
 */
export class PostgresStore implements Store {
  /** Data outlives the process, so the engine requires the host's key-encryption key (see `Store.durable`). */
  readonly durable = true;
  /** Reads fired together share one round trip, and a transaction remembers what it read (`PgTransaction`). */
  readonly readsAhead = true;
  private closed = false;
  /** This object's write transactions waiting for their turn (see the class comment). */
  private readonly writers = new WriterTurns();
  /**
   * Partition → its writer's lock statements, built once (they hash the partition and write its values into
   * text); cleared when it reaches {@link LOCKS_KEPT} partitions, so it stays small whatever the tree count.
   */
  private readonly locksByPartition = new Map<string | undefined, WriterLocks>();

  private constructor(
    private readonly pool: SqlPool,
    private readonly ownsPool: boolean,
    /** The quoted schema identifier. */
    private readonly schema: string,
    private readonly reachability: Reachability,
    /** Whether the pool's sessions run several statements sent as one query (pg's do; see `open`). */
    private readonly batches: boolean,
  ) {}

  /** Connects and brings the schema up to date (creating it on first use). */
  static async open(connection: string | SqlPool, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const name = options.schema ?? "custodian";
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
      throw new CustodyError("INVALID_ARGUMENT", `PostgresStore: schema name ${JSON.stringify(name)} is not allowed`, {
        field: "schema",
      });
    }
    const ownsPool = typeof connection === "string" || options.endPoolOnClose === true;
    const pool: SqlPool = typeof connection === "string" ? ownedPool(connection) : connection;
    const schema = `"${name}"`;
    let batches: boolean;
    try {
      batches = await withSession(pool, async (session) => {
        await migrate(session, schema);
        return runsSeveralStatements(session);
      });
    } catch (error) {
      if (ownsPool) await pool.end();
      throw error;
    }
    return new PostgresStore(pool, ownsPool, schema, new Reachability(options.onAvailabilityChange), batches);
  }

  /** Runs `call`, reporting a lost database as `storeUnavailable` (see {@link Reachability}). */
  private async reach<T>(call: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await call();
    } catch (error) {
      throw this.reachability.failure(error);
    }
    this.reachability.reached();
    return result;
  }

  /**
   * Runs `work` in a transaction (see the class comment). When PostgreSQL refuses to commit because a
   * concurrent transaction conflicted (a serialization failure, a deadlock or a unique key taken meanwhile), the store rolls back and runs `work`
   * again from the start, up to 50 times: the caller sees only the final outcome. **`work` may therefore run
   * more than once**, so it must have no effect outside the transaction it is handed (or only effects that
   * are safe to repeat). `options.partition` lets transactions of different partitions run at once (see the
   * class comment).
   */
  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    this.assertOpen();
    const { partition } = options;
    return this.reach(() => this.withRetries(work, partition));
  }

  private async withRetries<T>(work: (tx: StoreTransaction) => Promise<T>, partition: string | undefined): Promise<T> {
    let turn = partition;
    // Puts are deferred (sent with the next statement) until one is refused: the work then runs again at once
    // with puts sent where they are awaited, so the refusal reaches the caller as the put's own error.
    let deferring = this.batches;
    for (let attempt = 1; ; attempt++) {
      const locks = this.writerLocks(turn);
      const defers = deferring;
      try {
        const result = await this.writers.run(turn, () =>
          withSession(this.pool, (session, markBroken) => this.attempt(session, markBroken, locks, defers, work)),
        );
        this.writers.committed();
        return result;
      } catch (error) {
        if (isDeferredWriteRefused(error) && deferring) {
          deferring = false;
          attempt--;
          continue;
        }
        if (!isRetryable(error)) throw error;
        this.writers.conflicted();
        // A partitioned writer conflicts with writers of other partitions when they do touch the same rows. One
        // that keeps conflicting runs alone, where no writer that takes turns can conflict with it, so a storm of
        // conflicts ends.
        if (attempt >= ALONE_AFTER) turn = undefined;
        if (attempt >= MAX_ATTEMPTS) {
          throw new CustodyError("ABORTED", `PostgresStore: the transaction kept conflicting (${attempt} attempts)`, {
            reason: "TRANSACTION_CONFLICT",
          });
        }
        await backoff(attempt);
      }
    }
  }

  /**
   * The statements that take and give back a writer's advisory locks. The schema's lock is the one every
   * version of the store takes (exclusively); a partitioned writer holds it shared and its partition's lock
   * exclusively, always in that order, so waiting writers never deadlock.
   */
  private writerLocks(partition: string | undefined): WriterLocks {
    let locks = this.locksByPartition.get(partition);
    if (locks === undefined) {
      if (this.locksByPartition.size >= LOCKS_KEPT) this.locksByPartition.clear();
      locks = this.buildWriterLocks(partition);
      this.locksByPartition.set(partition, locks);
    }
    return locks;
  }

  private buildWriterLocks(partition: string | undefined): WriterLocks {
    // The same statements with their values written in, for a query of several statements (which takes none):
    // numbers, and the schema's quoted name, which holds only letters, digits and `_`.
    const literal = (statement: Statement): string =>
      statement.text.replace(/\$([0-9])/g, (_, n: string) => {
        const value = statement.values[Number(n) - 1];
        return typeof value === "number" ? String(value) : `'${value as string}'`;
      });
    // A partitioned writer runs at REPEATABLE READ (see the class comment); one alone, at SERIALIZABLE.
    const begin = `BEGIN ISOLATION LEVEL ${partition === undefined ? "SERIALIZABLE" : "REPEATABLE READ"}`;
    const withLiterals = (lock: Statement, unlock: Statement): WriterLocks => ({
      lock,
      unlock,
      begin,
      lockThenBegin: `${literal(lock)}; COMMIT; ${begin}`,
      commitThenUnlock: `COMMIT; ${literal(unlock)}`,
    });
    if (partition === undefined) {
      const values = [WRITER_LOCK_CLASS, this.schema];
      return withLiterals(
        { text: "SELECT pg_advisory_lock($1, hashtext($2))", values },
        { text: "SELECT pg_advisory_unlock($1, hashtext($2))", values },
      );
    }
    const values = [WRITER_LOCK_CLASS, this.schema, PARTITION_LOCK_CLASS, partitionKey(this.schema, partition)];
    return withLiterals(
      { text: "SELECT pg_advisory_lock_shared($1, hashtext($2)), pg_advisory_lock($3, $4)", values },
      { text: "SELECT pg_advisory_unlock($3, $4), pg_advisory_unlock_shared($1, hashtext($2))", values },
    );
  }

  private async attempt<T>(
    session: SqlSession,
    markBroken: () => void,
    locks: WriterLocks,
    defersWrites: boolean,
    work: (tx: StoreTransaction) => Promise<T>,
  ): Promise<T> {
    // The locks are taken before BEGIN, so the transaction's snapshot already sees the previous writer's commit.
    // A session that runs several statements in one query sends the locks and BEGIN with the transaction's first
    // statement (the COMMIT between ends the implicit transaction the locking ran in, and session locks outlive
    // it; the snapshot is taken by that first statement), and the COMMIT with the unlocks. A transaction that
    // sent nothing then took no lock and has nothing to commit.
    const tx = new PgTransaction(session, this.schema, this.batches ? locks.lockThenBegin : undefined, defersWrites);
    let unlocked = false;
    try {
      if (!this.batches) {
        await session.query(locks.lock.text, locks.lock.values);
        await session.query(locks.begin);
      }
      try {
        const result = await work(tx);
        // A server error the callback caught still dooms the transaction (COMMIT would silently roll back).
        if (tx.failure !== undefined) throw tx.failure;
        if (!tx.opened && !tx.holdsUnsent) {
          unlocked = true;
        } else if (this.batches) {
          await tx.commit(locks.commitThenUnlock);
          unlocked = true;
        } else {
          await session.query("COMMIT");
        }
        return result;
      } catch (error) {
        // The callback's error may come from going on past a deferred put that the server would refuse.
        if (tx.failure === undefined) await tx.sendDeferred();
        if (tx.opened) await rollback(session, markBroken);
        // The callback's error may be a consequence of what its queries met (it may have caught their error and
        // thrown its own): a conflict, which the retry decision must see, a refused deferred put, or a lost
        // connection, which is the outage to report rather than whatever the callback made of it.
        const failure = tx.failure;
        throw isRetryable(failure) || isDeferredWriteRefused(failure) || connectionLossReason(failure) !== undefined
          ? failure
          : error;
      }
    } finally {
      tx.finish();
      if (tx.opened && !unlocked) {
        try {
          await session.query(locks.unlock.text, locks.unlock.values);
        } catch {
          // A session that cannot unlock is dropped: closing it releases the lock.
          markBroken();
        }
      }
    }
  }

  /**
   * Runs `work` on one snapshot of committed data (a read-only REPEATABLE READ transaction, which never conflicts).
   * A session that runs several statements in one query begins it with the first read; the result is handed
   * back without waiting for the COMMIT.
   */
  async read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T> {
    this.assertOpen();
    const begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
    return this.reach(() =>
      withSession(this.pool, async (session, markBroken, releaseAfter) => {
        if (!this.batches) await session.query(begin);
        const reader = new PgTransaction(session, this.schema, this.batches ? begin : undefined);
        try {
          const result = await work(reader);
          // The answer is complete: ending a read-only transaction changes nothing the caller could see, so the
          // caller goes on while the COMMIT runs, and the session returns to the pool once it is done.
          if (reader.opened) releaseAfter(session.query("COMMIT"));
          return result;
        } catch (error) {
          if (reader.opened) await rollback(session, markBroken);
          throw connectionLossReason(reader.failure) !== undefined ? reader.failure : error;
        } finally {
          reader.finish();
        }
      }),
    );
  }

  /**
   * Leases records (see `Store.claim`) in one READ COMMITTED statement: `FOR UPDATE SKIP LOCKED` passes over rows
   * another instance is claiming or writing at that moment instead of waiting for it, and the lease condition
   * is checked again on each row as it is locked, so two instances never take the same record. Not run at
   * SERIALIZABLE: a lease is not data, and the claim must not make transactions that read the rows conflict.
   */
  async claim(collection: string, scope: string, options: ClaimOptions): Promise<StoredRecord[]> {
    this.assertOpen();
    checkClaim(options);
    const values: unknown[] = [collection, scope, options.owner, Math.floor(options.now), Math.ceil(options.until)];
    let before = "";
    if (options.before !== undefined) {
      values.push(options.before);
      before = ` AND id < $${values.length}`;
    }
    values.push(options.limit);
    const limit = `$${values.length}`;
    const rows = await this.reach(() =>
      withSession(this.pool, async (session, markBroken) => {
        await session.query("BEGIN ISOLATION LEVEL READ COMMITTED");
        try {
          const result = await session.query(
            `UPDATE ${this.schema}.records AS r SET lease_owner = $3, lease_until = $5
           FROM (SELECT collection, id FROM ${this.schema}.records
                 WHERE collection = $1 AND scope = $2${before} AND (lease_until IS NULL OR lease_until <= $4)
                 ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED) AS picked
           WHERE r.collection = picked.collection AND r.id = picked.id
           RETURNING r.id, r.body`,
            values,
          );
          await session.query("COMMIT");
          return result.rows;
        } catch (error) {
          await rollback(session, markBroken);
          throw error;
        }
      }),
    );
    // RETURNING follows no order; the contract hands records out lowest id first.
    return rows
      .map((row) => ({ id: row.id as string, body: row.body as string }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => decodeRecord(row.body));
  }

  /** Ends `owner`'s leases on these records (see `Store.release`). */
  async release(collection: string, ids: readonly string[], owner: string): Promise<void> {
    this.assertOpen();
    if (ids.length === 0) return;
    await this.reach(() =>
      withSession(this.pool, (session) =>
        session.query(
          `UPDATE ${this.schema}.records SET lease_owner = NULL, lease_until = NULL
           WHERE collection = $1 AND id = ANY($2::text[]) AND lease_owner = $3`,
          [collection, [...ids], owner],
        ),
      ),
    );
  }

  /** Whether the schema holds no record yet: a database no engine has written to. */
  async isEmpty(): Promise<boolean> {
    this.assertOpen();
    return this.reach(() =>
      withSession(this.pool, async (session) => {
        const { rows } = await session.query(`SELECT NOT EXISTS (SELECT 1 FROM ${this.schema}.records) AS empty`);
        return (rows[0] as { empty: boolean }).empty;
      }),
    );
  }

  /** Stops accepting work; ends the pool if the store created it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new CustodyError("FAILED_PRECONDITION", "PostgresStore: the store is closed", { reason: "STORE_CLOSED" });
    }
  }
}

/** The first key of the writers' advisory lock (the second is the schema's hash): "cust" in ASCII. */
const WRITER_LOCK_CLASS = 0x63757374;
/** Partitions whose lock statements a store keeps built (see `PostgresStore.locksByPartition`). */
const LOCKS_KEPT = 1024;

/** Conflicting attempts after which a partitioned writer runs alone (see `withRetries`). */
const ALONE_AFTER = 3;

/** The first key of a partition's advisory lock (the second is {@link partitionKey}): "cusp" in ASCII. */
const PARTITION_LOCK_CLASS = 0x63757370;

/** One statement and its values. */
interface Statement {
  text: string;
  values: unknown[];
}

/** How a writer takes its advisory locks and gives them back. */
interface WriterLocks {
  lock: Statement;
  unlock: Statement;
  /** Begins the transaction, at the isolation level the writer needs. */
  begin: string;
  /** Takes the locks and begins the transaction, as one query. */
  lockThenBegin: string;
  /** Commits and gives the locks back, as one query. */
  commitThenUnlock: string;
}

/**
 * Whether `session` runs a query of several statements (the simple query protocol), answering with one result
 * each, as pg does. An adapter that refuses one (PGlite's `query`) gets one statement per query.
 */
async function runsSeveralStatements(session: SqlSession): Promise<boolean> {
  try {
    const results: unknown = await session.query("SELECT 1 AS one; SELECT 2 AS two");
    return Array.isArray(results) && results.length === 2;
  } catch {
    return false;
  }
}

/**
 * The second key of a partition's advisory lock: 32 bits of a hash of the schema and the partition. Two
 * partitions that share a key merely take turns.
 */
function partitionKey(schema: string, partition: string): number {
  return createHash("sha256").update(schema).update("\u0000").update(partition).digest().readInt32BE(0);
}

/** How long a pool the store owns waits for a new connection before the call fails as unavailable. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A pool for a connection string. A session the server drops (a restart, a failover, a network cut) makes pg
 * emit `error`: on the pool for an idle one, on the session itself for one lent out, and an `error` nobody
 * listens to ends the process. Both are heard and dropped here: the pool discards an idle session itself, and
 * a lent one fails its next query, which the store reports as unavailable and gives back to be discarded.
 * Without a connection timeout a database that does not answer (a dead host) would hold each call for the
 * operating system's minutes.
 */
function ownedPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}

/** Rolls back, keeping the error that caused it as the one reported; a session that cannot is marked broken. */
async function rollback(session: SqlSession, markBroken: () => void): Promise<void> {
  try {
    await session.query("ROLLBACK");
  } catch {
    markBroken();
  }
}
