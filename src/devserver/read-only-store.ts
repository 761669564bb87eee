/**
 * A view of a store that refuses every write, for tools that must leave a data directory exactly as they
 * found it.
 *
 * @module
 */
import { CustodyError } from "../common/errors.js";
import type { Store, StoreReader, StoreTransaction } from "../storage/store.js";

function refuse(): never {
  throw new CustodyError("FAILED_PRECONDITION", "this store is open read-only", { reason: "STORE_READ_ONLY" });
}

/** `store` with transactions that may read but throw `FAILED_PRECONDITION` (`STORE_READ_ONLY`) on a write. */
export function readOnly(store: Store): Store {
  return {
    transaction: (work) =>
      store.read((reader: StoreReader) => {
        const tx: StoreTransaction = {
          get: (collection, id) => reader.get(collection, id),
          lookup: (index, key) => reader.lookup(index, key),
          list: (collection, scope, options) => reader.list(collection, scope, options),
          put: async () => refuse(),
          delete: async () => refuse(),
        };
        return work(tx);
      }),
    read: (work) => store.read(work),
    // A lease writes nothing into the data; a read-only tool has no use for one, so it is refused too.
    claim: async () => refuse(),
    release: async () => refuse(),
    close: () => store.close(),
  };
}
