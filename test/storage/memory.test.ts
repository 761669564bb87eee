import { MemoryStore } from "../../src/storage/memory.js";
import { runStoreContract } from "./contract.js";

runStoreContract("MemoryStore", async () => new MemoryStore());
