/**
 * Temporary directories for the tests of one file, all removed once the file's tests are done.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/**
 * Returns a maker of fresh directories named `custodian-<prefix>-…` under the system's temporary directory. Call it
 * at the top of a test file: it registers the file's `afterAll` that removes every directory it made.
 */
export function tempDirectories(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.map((directory) => rm(directory, { recursive: true, force: true })));
  });
  return async () => {
    const directory = await mkdtemp(join(tmpdir(), `custodian-${prefix}-`));
    made.push(directory);
    return directory;
  };
}
