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
  {
    // A transaction's reads and puts as calls of PL/pgSQL functions, whose statements each session plans once
    // and keeps: the same reads and puts sent as SQL text were planned again on every call, which cost the
    // server several times what running them did. See `transaction.ts`.
    version: 4,
    statements: (s) => [readManyFunction(s), putRecordFunction4(s)],
  },
  {
    // A transaction's deferred puts as one call (`put_many`), and both put functions checking and writing keys
    // one at a time. A statement over `unnest` of the keys had a generic plan that scanned the whole key table
    // (the arrays' length unknown), so the server planned it again on every call: that planning was an eighth
    // of the server's CPU per activity. Scalar statements keep one plan per session. `put_record` keeps its
    // arguments and answers, so processes still running version 4's code use it unchanged.
    version: 5,
    statements: (s) => [putRecordFunction(s), putManyFunction(s)],
  },
];

/**
 * `read_many(kinds, a, b, afters, befores, limits)`: reads in order, each a row set tagged with its place
 * (`read`, from 0) and its rows' order (`ord`). A read is `get` (collection `a`, id `b`), `lookup` (index `a`, key
 * `b`: the holder's id in `held_by`), or `list` or `list desc` (collection `a`, scope `b`, ids above `afters` and
 * below `befores` when given, at most `limits` when given, by id). Every argument is text, so that a read is
 * written into a query the same way whether it is sent with values or inline. No id holds U+0000, so `id >
 * after` is `id >= after || U+0001`, which with no cursor is every id: a bound a cached plan scans the index by.
 * The upper bound has statements of its own for the same reason.
 */
function readManyFunction(s: string): string {
  const list = (order: "ASC" | "DESC", before: boolean) =>
    `RETURN QUERY SELECT i - 1, r.body, NULL::text, row_number() OVER (ORDER BY r.id ${order})
            FROM ${s}.records AS r
            WHERE r.collection = a[i] AND r.scope = b[i] AND r.id >= COALESCE(afters[i] || E'\\001', '')
              ${before ? "AND r.id < befores[i]" : ""}
            ORDER BY r.id ${order} LIMIT limits[i]::integer;`;
  return `CREATE FUNCTION ${s}.read_many(kinds text[], a text[], b text[], afters text[], befores text[],
      limits text[])
    RETURNS TABLE (read integer, body text, held_by text, ord bigint) LANGUAGE plpgsql STABLE AS $$
    BEGIN
      FOR i IN 1 .. COALESCE(cardinality(kinds), 0) LOOP
        IF kinds[i] = 'get' THEN
          RETURN QUERY SELECT i - 1, r.body, NULL::text, 1::bigint FROM ${s}.records AS r
            WHERE r.collection = a[i] AND r.id = b[i];
        ELSIF kinds[i] = 'lookup' THEN
          RETURN QUERY SELECT i - 1, NULL::text, u.id, 1::bigint FROM ${s}.unique_keys AS u
            WHERE u.index_name = a[i] AND u.key = b[i];
        ELSIF kinds[i] = 'list desc' THEN
          IF befores[i] IS NULL THEN ${list("DESC", false)} ELSE ${list("DESC", true)} END IF;
        ELSE
          IF befores[i] IS NULL THEN ${list("ASC", false)} ELSE ${list("ASC", true)} END IF;
        END IF;
      END LOOP;
    END $$`;
}

/**
 * `put_record(collection, id, scope, body, index_names, keys, deferred)`: checks the keys, writes the record
 * unless a key is held by another id or a record with this id sits in another scope, drops the keys a replaced
 * record no longer declares, and writes its own. A key held by a record with this id in another collection
 * passes to this one, as in the other stores. Answers `replaced` (whether a record stood there; null when
 * nothing was written) and `held` (the keys held by others, JSON `[index, key, id]` triples), or, for a deferred
 * put, fails the statement with {@link DEFERRED_WRITE_REFUSED} instead of writing nothing. Whether a record
 * stood there comes from the insert itself (`xmax` is 0 on a row it inserted), not from a read: a read of a new
 * id would lock the end of the index where every writer inserts its own new ids. Keys are checked and written
 * one statement each (see version 5).
 */
function putRecordFunction(s: string): string {
  return `CREATE OR REPLACE FUNCTION ${s}.put_record(p_collection text, p_id text, p_scope text, p_body text,
      p_index_names text[], p_keys text[], p_deferred boolean, OUT replaced boolean, OUT held text)
    LANGUAGE plpgsql AS $$
    DECLARE
      holders text[] := '{}';
      holder text;
    BEGIN
      FOR k IN 1 .. COALESCE(cardinality(p_keys), 0) LOOP
        SELECT u.id INTO holder FROM ${s}.unique_keys AS u
          WHERE u.index_name = p_index_names[k] AND u.key = p_keys[k];
        IF FOUND AND holder <> p_id THEN
          holders := holders || json_build_array(p_index_names[k], p_keys[k], holder)::text;
        END IF;
      END LOOP;
      IF cardinality(holders) > 0 THEN
        IF p_deferred THEN PERFORM ${s}.refuse_write(); END IF;
        held := '[' || array_to_string(holders, ',') || ']';
        RETURN;
      END IF;
      INSERT INTO ${s}.records AS r (collection, id, scope, body) VALUES (p_collection, p_id, p_scope, p_body)
        ON CONFLICT (collection, id) DO UPDATE SET body = EXCLUDED.body, lease_owner = NULL, lease_until = NULL
        WHERE r.scope = EXCLUDED.scope
        RETURNING r.xmax <> 0 INTO replaced;
      IF NOT FOUND THEN
        IF p_deferred THEN PERFORM ${s}.refuse_write(); END IF;
        RETURN;
      END IF;
      IF replaced THEN
        DELETE FROM ${s}.unique_keys AS u WHERE u.collection = p_collection AND u.id = p_id
          AND NOT EXISTS (SELECT 1 FROM unnest(p_index_names, p_keys) AS w(index_name, key)
                          WHERE w.index_name = u.index_name AND w.key = u.key);
      END IF;
      FOR k IN 1 .. COALESCE(cardinality(p_keys), 0) LOOP
        INSERT INTO ${s}.unique_keys AS u (index_name, key, collection, id)
          VALUES (p_index_names[k], p_keys[k], p_collection, p_id)
          ON CONFLICT (index_name, key) DO UPDATE SET collection = EXCLUDED.collection, id = EXCLUDED.id;
      END LOOP;
    END $$`;
}

/** `put_record` as version 4 wrote it: one statement over all the keys (see version 5). */
function putRecordFunction4(s: string): string {
  return `CREATE FUNCTION ${s}.put_record(p_collection text, p_id text, p_scope text, p_body text,
      p_index_names text[], p_keys text[], p_deferred boolean, OUT replaced boolean, OUT held text)
    LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(p_keys) > 0 THEN
        SELECT json_agg(json_build_array(u.index_name, u.key, u.id))::text INTO held
          FROM ${s}.unique_keys AS u JOIN unnest(p_index_names, p_keys) AS w(index_name, key)
            ON u.index_name = w.index_name AND u.key = w.key
          WHERE u.id <> p_id;
        IF held IS NOT NULL THEN
          IF p_deferred THEN PERFORM ${s}.refuse_write(); END IF;
          RETURN;
        END IF;
      END IF;
      INSERT INTO ${s}.records AS r (collection, id, scope, body) VALUES (p_collection, p_id, p_scope, p_body)
        ON CONFLICT (collection, id) DO UPDATE SET body = EXCLUDED.body, lease_owner = NULL, lease_until = NULL
        WHERE r.scope = EXCLUDED.scope
        RETURNING r.xmax <> 0 INTO replaced;
      IF NOT FOUND THEN
        IF p_deferred THEN PERFORM ${s}.refuse_write(); END IF;
        RETURN;
      END IF;
      IF replaced THEN
        DELETE FROM ${s}.unique_keys AS u WHERE u.collection = p_collection AND u.id = p_id
          AND NOT EXISTS (SELECT 1 FROM unnest(p_index_names, p_keys) AS w(index_name, key)
                          WHERE w.index_name = u.index_name AND w.key = u.key);
      END IF;
      IF cardinality(p_keys) > 0 THEN
        INSERT INTO ${s}.unique_keys AS u (index_name, key, collection, id)
          SELECT w.index_name, w.key, p_collection, p_id FROM unnest(p_index_names, p_keys) AS w(index_name, key)
          ON CONFLICT (index_name, key) DO UPDATE SET collection = EXCLUDED.collection, id = EXCLUDED.id;
      END IF;
    END $$`;
}

/**
 * `put_many(puts, VARIADIC bodies)`: deferred puts, in order, as `put_record` with `deferred` writes them (any
 * refusal fails the statement with {@link DEFERRED_WRITE_REFUSED}). `puts` holds, for each body in turn, its
 * collection, id, scope and number of keys, then that many index names and keys, alternating: one array and the
 * bodies as text arguments, so that a transaction's puts are one statement whose values the server parses
 * cheaply.
 */
function putManyFunction(s: string): string {
  return `CREATE FUNCTION ${s}.put_many(puts text[], VARIADIC bodies text[]) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      at integer := 1;
      v_collection text;
      v_id text;
      v_scope text;
      v_count integer;
      v_index_names text[];
      v_keys text[];
      holder text;
      replaced boolean;
    BEGIN
      FOR n IN 1 .. COALESCE(cardinality(bodies), 0) LOOP
        v_collection := puts[at];
        v_id := puts[at + 1];
        v_scope := puts[at + 2];
        v_count := puts[at + 3]::integer;
        v_index_names := '{}';
        v_keys := '{}';
        FOR k IN 1 .. v_count LOOP
          v_index_names := v_index_names || puts[at + 2 + 2 * k];
          v_keys := v_keys || puts[at + 3 + 2 * k];
        END LOOP;
        at := at + 4 + 2 * v_count;
        FOR k IN 1 .. v_count LOOP
          SELECT u.id INTO holder FROM ${s}.unique_keys AS u
            WHERE u.index_name = v_index_names[k] AND u.key = v_keys[k];
          IF FOUND AND holder <> v_id THEN PERFORM ${s}.refuse_write(); END IF;
        END LOOP;
        INSERT INTO ${s}.records AS r (collection, id, scope, body) VALUES (v_collection, v_id, v_scope, bodies[n])
          ON CONFLICT (collection, id) DO UPDATE SET body = EXCLUDED.body, lease_owner = NULL, lease_until = NULL
          WHERE r.scope = EXCLUDED.scope
          RETURNING r.xmax <> 0 INTO replaced;
        IF NOT FOUND THEN PERFORM ${s}.refuse_write(); END IF;
        IF replaced THEN
          DELETE FROM ${s}.unique_keys AS u WHERE u.collection = v_collection AND u.id = v_id
            AND NOT EXISTS (SELECT 1 FROM unnest(v_index_names, v_keys) AS w(index_name, key)
                            WHERE w.index_name = u.index_name AND w.key = u.key);
        END IF;
        FOR k IN 1 .. v_count LOOP
          INSERT INTO ${s}.unique_keys AS u (index_name, key, collection, id)
            VALUES (v_index_names[k], v_keys[k], v_collection, v_id)
            ON CONFLICT (index_name, key) DO UPDATE SET collection = EXCLUDED.collection, id = EXCLUDED.id;
        END LOOP;
      END LOOP;
    END $$`;
}

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
