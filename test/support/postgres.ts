/**
 * PostgreSQL for tests: the real server named by `CUSTODIAN_PG_URL` when it is set (CI sets it), or else an
 * in-process PostgreSQL (PGlite), so the suite passes on a machine with no server. Every store opened here
 * gets its own schema (on the server) or its own database (PGlite), so tests and runs never collide.
 */
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll } from "vitest";
import { PostgresStore, type SqlPool, type SqlSession } from "../../src/storage/postgres/index.js";

export const serverUrl = process.env.CUSTODIAN_PG_URL || undefined;

/** Which PostgreSQL the tests run on, for test names. */
export const postgresKind = serverUrl ? "server" : "PGlite";

/**
 * PGlite runs one session, so this pool lends it to one borrower at a time: a second `connect` waits for the
 * first `release`. Transactions are then one-at-a-time (trivially serializable) and a `read` waits for an
 * open transaction, which the contract suite allows for single-session stores.
 */
export class PGlitePool implements SqlPool {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly db: PGlite) {}

  async connect(): Promise<SqlSession> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const turn = this.queue.then(() => undefined);
    this.queue = turn.then(() => released);
    await turn;
    const db = this.db;
    let open = true;
    return {
      async query(text, values) {
        if (!open) throw new Error("PGlitePool: session already released");
        const result = await db.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      },
      release() {
        open = false;
        release();
      },
    };
  }

  async end(): Promise<void> {
    await this.queue;
    await this.db.close();
  }
}

const schemas: string[] = [];
/** One PGlite per test file (starting one takes seconds); stores on it differ by schema. */
let shared: Promise<PGlitePool> | undefined;

afterAll(async () => {
  await (await shared)?.end();
  shared = undefined;
  if (!serverUrl || schemas.length === 0) return;
  const pool = new pg.Pool({ connectionString: serverUrl, max: 1 });
  try {
    for (const schema of schemas.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await pool.end();
  }
});

/** A fresh schema name, dropped after the file's tests. */
export function freshSchema(): string {
  const schema = `custodian_test_${randomBytes(6).toString("hex")}`;
  schemas.push(schema);
  return schema;
}

/**
 * A database for one test, in a fresh schema: on the server, a connection string (the store owns its pool);
 * on PGlite, this file's shared in-process database, whose pool the store must not end.
 */
export async function testDatabase(): Promise<{ connection: string | SqlPool; schema: string }> {
  if (serverUrl) return { connection: serverUrl, schema: freshSchema() };
  shared ??= PGlite.create().then((db) => new PGlitePool(db));
  return { connection: await shared, schema: freshSchema() };
}

/** A fresh, empty PostgresStore. */
export async function openTestStore(): Promise<PostgresStore> {
  const { connection, schema } = await testDatabase();
  return PostgresStore.open(connection, { schema });
}

/** Runs one query on a test database, outside any store (to look at the tables themselves). */
export async function queryDatabase(connection: string | SqlPool, text: string): Promise<Record<string, unknown>[]> {
  const pool: SqlPool =
    typeof connection === "string" ? new pg.Pool({ connectionString: connection, max: 1 }) : connection;
  try {
    const session = await pool.connect();
    try {
      return (await session.query(text)).rows;
    } finally {
      session.release();
    }
  } finally {
    if (typeof connection === "string") await pool.end();
  }
}
