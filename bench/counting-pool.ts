/**
 * A `SqlPool` over `pg` that counts what PostgresStore sends through it: round trips (one per `query` call),
 * statements (the store's only multi-statement queries join theirs with "; ": BEGIN, the partition's advisory
 * lock, COMMIT) and bytes of query text and values. Shared by the benchmarks that print those counts.
 */
import pg from "pg";
import type { SqlPool } from "../dist/postgres.js";

/** What {@link countingPool} has counted so far; the caller may reset the fields to 0 at any time. */
export interface QueryCounts {
  roundTrips: number;
  statements: number;
  bytes: number;
}

export interface CountingPoolOptions {
  connectionString: string;
  /** `application_name` of its sessions, to find their backends in `pg_stat_activity`. */
  applicationName?: string;
  max?: number;
  /** Sees every query before it is sent (for printing one activity's queries). */
  onQuery?: (text: string, values: unknown[] | undefined) => void;
}

export function countingPool(options: CountingPoolOptions): { pool: SqlPool; counts: QueryCounts } {
  const inner = new pg.Pool({
    connectionString: options.connectionString,
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
    ...(options.max === undefined ? {} : { max: options.max }),
  });
  const counts: QueryCounts = { roundTrips: 0, statements: 0, bytes: 0 };
  const pool: SqlPool = {
    async connect() {
      const session = await inner.connect();
      return {
        query: (text: string, values?: unknown[]) => {
          counts.roundTrips++;
          counts.statements += text.split("; ").length;
          counts.bytes += Buffer.byteLength(text) + (values ? Buffer.byteLength(JSON.stringify(values)) : 0);
          options.onQuery?.(text, values);
          return session.query(text, values);
        },
        release: (destroy?: boolean | Error) => session.release(destroy),
      };
    },
    end: () => inner.end(),
  };
  return { pool, counts };
}
