import { expect } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import type { PolicyContext } from "../../src/policy/index.js";

export const SUBMITTER = "0fd630f1-f29d-4da9-953f-48f1a09f76b5";
export const OTHER_USER = "8e81973e-0bec-47b0-b898-d190f9ebdacc";
export const ROOT_USER = "36f675cc-81e7-4ef5-a8e2-5d940ed90475";
export const TAG = "6513270e-269e-4d37-b2a7-4de452e6b438";

/** A signing activity with an Ethereum transaction, a wallet target and one submitter. */
export function signingContext(overrides: Partial<PolicyContext> = {}): PolicyContext {
  return {
    activity: {
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      kind: "SIGN_TRANSACTION",
      resource: "PRIVATE_KEY",
      action: "SIGN",
      params: { type: "TRANSACTION_TYPE_ETHEREUM" },
    },
    approvers: [{ id: SUBMITTER, tags: [TAG], email: "dave@example.com", alias: "Dave" }],
    credentials: [
      { id: "cred-1", user_id: SUBMITTER, type: "CREDENTIAL_TYPE_API_KEY_P256", credential_id: "", public_key: "02ab" },
    ],
    wallet: { id: "wallet-1", label: "Treasury", imported: false, exported: false },
    wallet_account: { address: "0x61f4ec0630dd50f1393cbdb60e5cca1ed98f5100" },
    eth: {
      tx: {
        from: "0x61f4ec0630dd50f1393cbdb60e5cca1ed98f5100",
        to: "0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
        data: "0xa9059cbb0000000000000000000000009f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
        value: 10n ** 30n,
        gas: 21000,
        chain_id: 1,
        type: "TYPE_2",
        contract_call_args: { calls: [["0xabc", 0, "0x"]], wad: 5 },
      },
    },
    time: { now: "2026-03-16T14:00:00Z" },
    ...overrides,
  };
}

/** Runs `run`, expecting a `CustodyError` with the given reason (and position, when given). */
export function expectFailure(
  run: () => unknown,
  expected: { reason: string; position?: number; code?: string; field?: string; message?: RegExp },
): CustodyError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CustodyError);
  const error = caught as CustodyError;
  expect(error.details.reason).toBe(expected.reason);
  if (expected.position !== undefined) expect(error.details.position).toBe(expected.position);
  if (expected.code !== undefined) expect(error.code).toBe(expected.code);
  if (expected.field !== undefined) expect(error.details.field).toBe(expected.field);
  if (expected.message !== undefined) expect(error.message).toMatch(expected.message);
  return error;
}
