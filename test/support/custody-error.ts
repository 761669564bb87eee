/**
 * Asserting refusals of in-process calls: the `CustodyError`, its code and the field (or reason) it names.
 */
import { expect } from "vitest";
import { CustodyError } from "../../src/index.js";

/** Awaits `promise`, expecting it to reject with a `CustodyError`, and returns that error. */
export async function custodyRejection(promise: Promise<unknown>): Promise<CustodyError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a CustodyError, got success");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  return error as CustodyError;
}

/** Awaits `promise`, expecting it to reject with a `CustodyError` of `code` (naming `field` when given). */
export async function expectCustodyError(
  promise: Promise<unknown>,
  code: string,
  field?: string,
): Promise<CustodyError> {
  const error = await custodyRejection(promise);
  expect(error.code).toBe(code);
  if (field !== undefined) expect(error.details.field).toBe(field);
  return error;
}
