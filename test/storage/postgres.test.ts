import { openTestStore, postgresKind, serverUrl } from "../support/postgres.js";
import { runStoreContract } from "./contract.js";

runStoreContract(`PostgresStore (${postgresKind})`, openTestStore, {
  singleSession: !serverUrl,
  // Write transactions take turns (one per schema at a time), so a second one starts after the first commits.
  concurrentTransactions: false,
});
