/** A mistake in how a command was called: reported in one line with exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
