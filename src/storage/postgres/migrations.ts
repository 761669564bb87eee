/**
 * The schema, as numbered migrations applied in order and recorded in a `migrations` table. Several
 * instances may start at once: each takes a transaction-scoped advisory lock on the schema first, so one
 * applies the missing migrations while the others wait and then find nothing left to do.
 *
 * @module
 */
import { CustodyError } from "../../common/errors.js";
import type { SqlSession } from "./client.js";

/** A migration: its version and the statements that bring the schema from the previous version to it. */
interface Migration {
  version: number;
  statements: (schema: string) => string[];
}

/** The SQLSTATE of `refuse_write` (version 3): class CU, custodian's own. */
export const DEFERRED_WRITE_REFUSED = "CU001";

/**
 * Ids and scopes use `COLLATE "C"` (byte order), the order in which the other stores compare ids, so listings
 * agree across stores whatever the database's default collation. Records are JSON text rather than JSONB:
 * JSONB reorders keys and refuses `\u0000`, and the store never queries inside a record.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: (s) => [
      `CREATE TABLE ${s}.records (
        collection text NOT NULL,
        id text COLLATE "C" NOT NULL,
        scope text COLLATE "C" NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (collection, id)
      )`,
      `CREATE INDEX records_by_scope ON ${s}.records (collection, scope, id)`,
      `CREATE TABLE ${s}.unique_keys (
        index_name text NOT NULL,
        key text NOT NULL,
        collection text NOT NULL,
        id text NOT NULL,
        PRIMARY KEY (index_name, key)
      )`,
      `CREATE INDEX unique_keys_by_record ON ${s}.unique_keys (collection, id)`,
    ],
  },
  {
    // Leases (Store.claim): who holds a record and until when (the caller's clock, in ms). Columns beside the
    // body, so that taking one is an UPDATE that `FOR UPDATE SKIP LOCKED` can share out between instances.
    version: 2,
    statements: (s) => [`ALTER TABLE ${s}.records ADD COLUMN lease_owner text, ADD COLUMN lease_until bigint`],
  },
  {
    // A deferred put (see `transaction.ts`) is sent with a later statement, after the caller was told it went
    // through: one that would have thrown (a key held, a scope move) must fail its whole query instead, with an
    // error the store knows (`DEFERRED_WRITE_REFUSED`), so that nothing after it commits.
    version: 3,
    statements: (s) => [
      `CREATE FUNCTION ${s}.refuse_write() RETURNS void LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'custodian: a deferred write was refused' USING ERRCODE = '${DEFERRED_WRITE_REFUSED}'; END
       $$`,
    ],
  },
];

/** The newest schema version this code knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings `schema` (a quoted identifier) up to {@link SCHEMA_VERSION}; returns the versions it applied. */
export async function migrate(session: SqlSession, schema: string): Promise<number[]> {
  await session.query("BEGIN");
  try {
    await session.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`custodian migrations ${schema}`]);
    await session.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await session.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await session.query(`SELECT max(version) AS version FROM ${schema}.migrations`);
    const current = Number(rows[0]?.version ?? 0);
    if (current > SCHEMA_VERSION) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `PostgresStore: schema ${schema} is at version ${current}, newer than this custodian knows (${SCHEMA_VERSION})`,
        { reason: "SCHEMA_TOO_NEW" },
      );
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS.slice(current)) {
      for (const statement of migration.statements(schema)) await session.query(statement);
      await session.query(`INSERT INTO ${schema}.migrations (version) VALUES ($1)`, [migration.version]);
      applied.push(migration.version);
    }
    await session.query("COMMIT");
    return applied;
  } catch (error) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
