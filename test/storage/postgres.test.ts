import { openTestStore, postgresKind, serverUrl } from "../support/postgres.js";
import { runStoreContract } from "./contract.js";

runStoreContract(`PostgresStore (${postgresKind})`, openTestStore, {
  singleSession: !serverUrl,
  concurrentTransactions: !!serverUrl,
});
