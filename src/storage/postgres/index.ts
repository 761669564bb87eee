/**
 * The PostgreSQL store (`custodian/postgres`): several custodian instances behind one database.
 *
 * @module
 */
export type { AvailabilityChange } from "./availability.js";
export type { SqlPool, SqlResult, SqlSession } from "./client.js";
export { SCHEMA_VERSION } from "./migrations.js";
export { PostgresStore, type PostgresStoreOptions } from "./store.js";
