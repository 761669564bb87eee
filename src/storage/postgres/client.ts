/**
 * The little of a PostgreSQL client that PostgresStore uses: a pool that lends sessions. A `pg.Pool` satisfies
 * it as is; so can an adapter over another driver or an in-process PostgreSQL.
 *
 * @module
 */

/** The rows of one query, columns by name. */
export interface SqlResult {
  rows: Record<string, unknown>[];
}

/** One database session, lent by a pool until `release`. */
export interface SqlSession {
  /**
   * Runs one statement with positional parameters (`$1`, `$2`, ...). A session that also runs a text of several
   * statements given without values, answering with an array of results (one per statement) as pg does, saves
   * the store two round trips per write transaction; the store asks once, at open, and otherwise sends one
   * statement per query.
   */
  query(text: string, values?: unknown[]): Promise<SqlResult>;
  /** Gives the session back; `true` (or an error) asks the pool to discard it. */
  release(destroy?: boolean | Error): void;
}

/** A pool of sessions. */
export interface SqlPool {
  /** Takes a session from the pool; the caller gives it back with `release`. */
  connect(): Promise<SqlSession>;
  /** Closes every session of the pool. */
  end(): Promise<void>;
}

/**
 * Runs `work` on a session from `pool` and gives the session back, or has the pool discard it when `work`
 * called `markBroken` (a session that could not even roll back must not serve anyone else). Work that hands a
 * statement still running to `releaseAfter` (a read-only COMMIT its caller need not wait for) has the session
 * given back once that statement is done, and discarded if it fails.
 */
export async function withSession<T>(
  pool: SqlPool,
  work: (session: SqlSession, markBroken: () => void, releaseAfter: (running: Promise<unknown>) => void) => Promise<T>,
): Promise<T> {
  const session = await pool.connect();
  let broken = false;
  let running: Promise<unknown> | undefined;
  try {
    return await work(
      session,
      () => {
        broken = true;
      },
      (statement) => {
        running = statement;
      },
    );
  } finally {
    if (running === undefined) {
      session.release(broken || undefined);
    } else {
      running.then(
        () => session.release(broken || undefined),
        () => session.release(true),
      );
    }
  }
}

/** An error the server reported: it carries a five-character SQLSTATE. */
export function isSqlError(error: unknown): error is Error & { code: string } {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
}
