import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { compileExpression, PolicyRun } from "../../src/policy/compiled.js";
import { compileNode, MAX_EVALUATION_STEPS } from "../../src/policy/evaluator.js";
import { markImmutable } from "../../src/policy/immutable-inputs.js";
import { parseExpression } from "../../src/policy/parser.js";
import type { PolicyContext, PolicyCredential, PolicyUser } from "../../src/policy/types.js";

// A consensus's result is reused for the same immutable approvers and credentials (src/policy/compiled.ts);
// it must always be what evaluating again would give, with the same steps taken from the shared budget.

const SOURCE = "approvers.any(user, user.id == 'alice') && credentials.count() >= 1";

function context(approvers: PolicyUser[], credentials: PolicyCredential[]): PolicyContext {
  return { activity: { type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2" }, approvers, credentials };
}

function viaCompiled(ctx: PolicyContext, budget = MAX_EVALUATION_STEPS) {
  const run = new PolicyRun(ctx);
  run.remaining = budget;
  try {
    return { value: compileExpression("consensus", SOURCE).evaluate(run), remaining: run.remaining };
  } catch (error) {
    if (!(error instanceof CustodyError)) throw error;
    return { error: error.message, remaining: run.remaining };
  }
}

function viaClosures(ctx: PolicyContext, budget = MAX_EVALUATION_STEPS) {
  const run = new PolicyRun(ctx);
  run.remaining = budget;
  try {
    return { value: compileNode(parseExpression(SOURCE), SOURCE, "consensus")(run), remaining: run.remaining };
  } catch (error) {
    if (!(error instanceof CustodyError)) throw error;
    return { error: error.message, remaining: run.remaining };
  }
}

const credential = (userId: string): PolicyCredential => ({
  id: `c-${userId}`,
  user_id: userId,
  type: "CREDENTIAL_TYPE_API_KEY_P256",
  public_key: "02ab",
});

describe("reusing a consensus's result", () => {
  it("gives what evaluating again gives, for the same and for other immutable members", () => {
    const alice = markImmutable({ id: "alice", tags: [] as string[] });
    const bob = markImmutable({ id: "bob", tags: [] as string[] });
    const aliceKey = markImmutable(credential("alice"));
    for (const ctx of [
      context([alice], [aliceKey]),
      context([alice], [aliceKey]),
      context([bob], [aliceKey]),
      context([bob, alice], [aliceKey]),
      context([alice], []),
      context([alice], [aliceKey]),
    ]) {
      expect(viaCompiled(ctx)).toEqual(viaClosures(ctx));
    }
  });

  it("fails as evaluation fails when the budget left cannot cover the steps the result took", () => {
    const alice = markImmutable({ id: "alice", tags: [] as string[] });
    const aliceKey = markImmutable(credential("alice"));
    const ctx = context([alice], [aliceKey]);
    const full = viaCompiled(ctx);
    const steps = MAX_EVALUATION_STEPS - full.remaining;
    for (const budget of [steps, steps - 1, 0]) expect(viaCompiled(ctx, budget)).toEqual(viaClosures(ctx, budget));
  });

  it("never reuses a result for members a caller built and may change", () => {
    const user: PolicyUser = { id: "alice", tags: [] };
    const key = credential("alice");
    const ctx = context([user], [key]);
    expect(viaCompiled(ctx)).toMatchObject({ value: true });
    user.id = "mallory";
    expect(viaCompiled(ctx)).toMatchObject({ value: false });
    expect(viaCompiled(ctx)).toEqual(viaClosures(ctx));
  });

  it("freezes what it marks, all the way down", () => {
    const marked = markImmutable({ id: "alice", tags: ["t1"] });
    expect(Object.isFrozen(marked) && Object.isFrozen(marked.tags)).toBe(true);
  });
});
