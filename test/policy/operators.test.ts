import { describe, expect, it } from "vitest";
import { evaluateExpression, type PolicyContext } from "../../src/policy/index.js";
import { expectFailure, SUBMITTER, signingContext, TAG } from "./helpers.js";

const context = signingContext();
const check = (source: string, ctx: PolicyContext = context) => evaluateExpression(source, ctx);
const consensus = (source: string, ctx: PolicyContext = context) => evaluateExpression(source, ctx, "consensus");

describe("== and !=", () => {
  it("compare ints, strings, bools and timestamps", () => {
    expect(check("eth.tx.chain_id == 1")).toBe(true);
    expect(check("eth.tx.chain_id != 1")).toBe(false);
    expect(check("eth.tx.type == 'TYPE_2'")).toBe(true);
    expect(check("wallet.imported == false")).toBe(true);
    expect(check("Timestamp('2026-01-01T00:00:00Z') == Timestamp('2026-01-01T00:00:00.000Z')")).toBe(true);
  });

  it("refuse to compare an int with a string (custodian's decision 4)", () => {
    expectFailure(() => check("eth.tx.chain_id == '1'"), {
      reason: "POLICY_TYPE_MISMATCH",
      position: 16,
      message: /cannot compare int with string/,
    });
  });

  it("refuse to compare lists or maps", () => {
    expectFailure(() => check("['a'] == ['a']"), { reason: "POLICY_TYPE_MISMATCH", message: /list values/ });
    expectFailure(() => check("wallet == wallet"), { reason: "POLICY_TYPE_MISMATCH", message: /map values/ });
  });

  it("compare strings exactly, case included (custodian's decision 6)", () => {
    expect(check("eth.tx.to == '0x9F8E7D6C5B4A39281706F5E4D3C2B1A098765432'")).toBe(false);
  });
});

describe("ordering", () => {
  it("orders ints beyond 2^53 exactly", () => {
    expect(check("eth.tx.value > 999999999999999999999999999999")).toBe(true);
    expect(check("eth.tx.value >= 1000000000000000000000000000000")).toBe(true);
    expect(check("eth.tx.value < 1000000000000000000000000000000")).toBe(false);
    expect(check("eth.tx.value <= 1000000000000000000000000000000")).toBe(true);
  });

  it("orders timestamps", () => {
    expect(evaluateExpression("time.now > Timestamp('2026-03-16T13:59:59.999999999Z')", context, "time")).toBe(true);
    expect(evaluateExpression("time.now <= Timestamp('2026-03-16T14:00:00Z')", context, "time")).toBe(true);
    expect(evaluateExpression("time.now < Timestamp('2026-03-16T14:00:00.000000001Z')", context, "time")).toBe(true);
  });

  it("does not order strings or bools", () => {
    expectFailure(() => check("eth.tx.to < 'b'"), { reason: "POLICY_TYPE_MISMATCH", message: /ints or timestamps/ });
    expectFailure(() => check("true > false"), { reason: "POLICY_TYPE_MISMATCH" });
  });
});

describe("in", () => {
  it("finds strings and ints in lists of the same type (custodian's decision 3)", () => {
    expect(check("activity.resource in ['WALLET', 'PRIVATE_KEY']")).toBe(true);
    expect(check("eth.tx.chain_id in [1, 137]")).toBe(true);
    expect(check("eth.tx.chain_id in [10, 137]")).toBe(false);
    expect(check("eth.tx.chain_id in []")).toBe(false);
  });

  it("compares with every element, so a mistyped element fails even after a match", () => {
    expectFailure(() => check("eth.tx.chain_id in [1, '137']"), { reason: "POLICY_TYPE_MISMATCH" });
  });

  it("needs a list on its right", () => {
    expectFailure(() => check("'0x' in eth.tx.data"), { reason: "POLICY_TYPE_MISMATCH", message: /needs a list/ });
  });
});

describe("&&, || and ! (no short-circuit, custodian's decision 10)", () => {
  const noPrivateKey = signingContext();

  it("fail when a later operand fails, whatever the earlier ones gave", () => {
    expectFailure(() => check("false && private_key.id == 'k'", noPrivateKey), {
      reason: "POLICY_MISSING_FIELD",
      position: 9,
    });
    expectFailure(() => check("true || private_key.id == 'k'", noPrivateKey), { reason: "POLICY_MISSING_FIELD" });
  });

  it("make the documented wallet-or-private-key example always fail", () => {
    expectFailure(() => check("wallet.id == 'wallet-1' || private_key.id == 'k'"), {
      reason: "POLICY_MISSING_FIELD",
      message: /private_key/,
    });
  });

  it("require bool operands", () => {
    expectFailure(() => check("true && eth.tx.chain_id"), { reason: "POLICY_TYPE_MISMATCH", position: 8 });
    expectFailure(() => check("!eth.tx.to"), { reason: "POLICY_TYPE_MISMATCH", message: /operand of '!'/ });
  });

  it("negate with !", () => {
    expect(check("!wallet.exported")).toBe(true);
    expect(check("!!wallet.exported")).toBe(false);
  });

  it("require the whole expression to give a bool", () => {
    expectFailure(() => check("eth.tx.chain_id"), { reason: "POLICY_TYPE_MISMATCH", message: /must give a bool/ });
  });
});

describe("field access and indexing", () => {
  it("reads nested struct fields and map keys", () => {
    expect(check("eth.tx.contract_call_args['wad'] == 5")).toBe(true);
    expect(check("eth.tx.contract_call_args.wad == 5")).toBe(true);
  });

  it("reports a missing field, naming it and its owner", () => {
    expectFailure(() => check("eth.tx.gas_price > 0"), {
      reason: "POLICY_MISSING_FIELD",
      code: "FAILED_PRECONDITION",
      position: 7,
      message: /field 'gas_price' of 'eth.tx' is missing/,
    });
    expectFailure(() => check("eth.tx.contract_call_args['dst'] == '0x'"), {
      reason: "POLICY_MISSING_FIELD",
      message: /key 'dst'/,
    });
  });

  it("never reads inherited members as fields", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expectFailure(() => check(`wallet.${name} == 'x'`), { reason: "POLICY_MISSING_FIELD" });
      expectFailure(() => check(`wallet['${name}'] == 'x'`), { reason: "POLICY_MISSING_FIELD" });
    }
  });

  it("reads null as a missing field", () => {
    const ctx = signingContext({ wallet: { id: null } });
    expectFailure(() => check("wallet.id == 'x'", ctx), { reason: "POLICY_MISSING_FIELD", message: /is null/ });
  });

  it("indexes lists and strings by int", () => {
    expect(check("eth.tx.contract_call_args['calls'][0][0] == '0xabc'")).toBe(true);
    expect(check("eth.tx.to[1] == 'x'")).toBe(true);
  });

  it("refuses named access to an ABI tuple (read by position only)", () => {
    expectFailure(() => check("eth.tx.contract_call_args['calls'][0]['target'] == '0xabc'"), {
      reason: "POLICY_TYPE_MISMATCH",
      message: /indexed by int/,
    });
  });

  it("refuses an index out of range, pointing at the index", () => {
    expectFailure(() => check("eth.tx.contract_call_args['calls'][1][0] == 'x'"), {
      reason: "POLICY_OUT_OF_RANGE",
      code: "OUT_OF_RANGE",
      position: 35,
      message: /index 1 is out of range .* \(length 1\)/,
    });
    expectFailure(() => check("eth.tx.to[42] == 'x'"), { reason: "POLICY_OUT_OF_RANGE" });
  });

  it("refuses fields on scalars and indexes on bools", () => {
    expectFailure(() => check("eth.tx.chain_id.value == 1"), {
      reason: "POLICY_TYPE_MISMATCH",
      message: /has no field/,
    });
    expectFailure(() => check("wallet.imported[0] == true"), { reason: "POLICY_TYPE_MISMATCH" });
    expectFailure(() => check("wallet['id'.count] == 'x'"), { reason: "POLICY_TYPE_MISMATCH" });
  });

  it("indexes strings by character, never splitting a surrogate pair", () => {
    const ctx = signingContext({ wallet: { label: "a😀b" } });
    expect(check("wallet.label[1] == '😀'", ctx)).toBe(true);
    expect(check("wallet.label[2] == 'b'", ctx)).toBe(true);
    expect(check("wallet.label[1..3] == '😀b'", ctx)).toBe(true);
  });
});

describe("slices (custodian's decision 5)", () => {
  it("are end-exclusive and count the 0x prefix", () => {
    expect(check("eth.tx.data[0..10] == '0xa9059cbb'")).toBe(true);
    expect(check("eth.tx.data[34..74] == '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432'")).toBe(true);
    expect(check("eth.tx.data[0..0] == ''")).toBe(true);
  });

  it("slice lists too", () => {
    expect(check("eth.tx.contract_call_args['calls'][0][1..3].count() == 2")).toBe(true);
  });

  it("refuse bounds out of range or reversed", () => {
    expectFailure(() => check("eth.tx.data[0..1000] == ''"), {
      reason: "POLICY_OUT_OF_RANGE",
      position: 11,
      message: /slice \[0\.\.1000\]/,
    });
    expectFailure(() => check("eth.tx.data[5..4] == ''"), { reason: "POLICY_OUT_OF_RANGE" });
  });

  it("need int bounds and a string or list", () => {
    expectFailure(() => check("eth.tx.data['a'..'b'] == ''"), { reason: "POLICY_TYPE_MISMATCH" });
    expectFailure(() => check("eth.tx.chain_id[0..1] == 1"), { reason: "POLICY_TYPE_MISMATCH" });
  });
});

describe("list methods", () => {
  it("count with or without parentheses (custodian's decision 2)", () => {
    expect(consensus("approvers.count() == 1")).toBe(true);
    expect(consensus("approvers.count == 1")).toBe(true);
    expect(check("eth.tx.contract_call_args['calls'][0].count() == 3")).toBe(true);
  });

  it("contains compares with every element", () => {
    expect(consensus(`approvers[0].tags.contains('${TAG}')`)).toBe(true);
    expect(consensus("approvers[0].tags.contains('other')")).toBe(false);
    expectFailure(() => consensus("approvers[0].tags.contains(1)"), { reason: "POLICY_TYPE_MISMATCH" });
  });

  it("any, all and filter bind their variable per element", () => {
    const ctx = signingContext({
      approvers: [
        { id: SUBMITTER, tags: [TAG] },
        { id: "u2", tags: [] },
      ],
    });
    expect(consensus(`approvers.any(user, user.id == '${SUBMITTER}')`, ctx)).toBe(true);
    expect(consensus(`approvers.all(user, user.id == '${SUBMITTER}')`, ctx)).toBe(false);
    expect(consensus(`approvers.filter(user, user.tags.contains('${TAG}')).count() == 1`, ctx)).toBe(true);
    expect(consensus(`approvers.filter(user, user.tags.contains('${TAG}'))[0].id == '${SUBMITTER}'`, ctx)).toBe(true);
  });

  it("treat empty lists as any=false and all=true", () => {
    const ctx = signingContext({ approvers: [] });
    expect(consensus("approvers.any(u, true)", ctx)).toBe(false);
    expect(consensus("approvers.all(u, false)", ctx)).toBe(true);
    expect(consensus("approvers.filter(u, true).count() == 0", ctx)).toBe(true);
  });

  it("evaluate every element, so one failing element fails the quantifier", () => {
    const ctx = signingContext({
      approvers: [{ id: SUBMITTER, tags: [] }, { id: "u2" } as never],
    });
    expectFailure(() => consensus("approvers.any(u, u.tags.count() == 0)", ctx), {
      reason: "POLICY_MISSING_FIELD",
      message: /field 'tags' of 'u'/,
    });
  });

  it("nest, with inner lambdas seeing outer variables", () => {
    const ctx = signingContext();
    expect(consensus("approvers.any(u, credentials.any(c, c.user_id == u.id))", ctx)).toBe(true);
  });

  it("let a lambda variable shadow a keyword", () => {
    expect(consensus("approvers.any(credentials, credentials.id != '')")).toBe(true);
  });

  it("require a bool predicate and a list receiver", () => {
    expectFailure(() => consensus("approvers.any(u, u.id)"), { reason: "POLICY_TYPE_MISMATCH", message: /predicate/ });
    expectFailure(() => check("eth.tx.to.any(c, true)"), { reason: "POLICY_TYPE_MISMATCH", message: /needs a list/ });
    expectFailure(() => check("wallet.count() == 1"), { reason: "POLICY_TYPE_MISMATCH" });
  });

  it("work on list literals", () => {
    expect(check("[1, 2, 3].filter(n, n > 1).count() == 2")).toBe(true);
    expect(check("['a', 'b'].contains('b')")).toBe(true);
  });
});

describe("integers (custodian's decision 11)", () => {
  it("accept numbers that are safe integers and BigInts up to u256", () => {
    const ctx = signingContext({ eth: { tx: { value: (1n << 256n) - 1n, gas: 21000 } } });
    expect(
      check("eth.tx.value == 115792089237316195423570985008687907853269984665640564039457584007913129639935", ctx),
    ).toBe(true);
    expect(check("eth.tx.gas == 21000", ctx)).toBe(true);
  });

  it("refuse context numbers that lost precision or are not integers", () => {
    const unsafe = signingContext({ eth: { tx: { value: 2 ** 60 } } });
    expectFailure(() => check("eth.tx.value > 0", unsafe), { reason: "POLICY_TYPE_MISMATCH", message: /BigInt/ });
    const fraction = signingContext({ eth: { tx: { value: 1.5 } } });
    expectFailure(() => check("eth.tx.value > 0", fraction), {
      reason: "POLICY_TYPE_MISMATCH",
      message: /not an integer/,
    });
  });

  it("refuse BigInts outside i128..u256", () => {
    const low = signingContext({ eth: { tx: { value: -(1n << 127n) - 1n } } });
    expectFailure(() => check("eth.tx.value > 0", low), { reason: "POLICY_OUT_OF_RANGE" });
    const high = signingContext({ eth: { tx: { value: 1n << 256n } } });
    expectFailure(() => check("eth.tx.value > 0", high), { reason: "POLICY_OUT_OF_RANGE" });
  });
});

describe("keywords", () => {
  it("resolve only in their own field", () => {
    expectFailure(() => check("approvers.count() > 0"), {
      reason: "POLICY_UNKNOWN_IDENTIFIER",
      message: /consensus keyword .* condition expression/,
    });
    expectFailure(() => consensus("activity.type == 'x'"), { reason: "POLICY_UNKNOWN_IDENTIFIER" });
    expectFailure(() => check("time.now > Timestamp('2026-01-01T00:00:00Z')"), { reason: "POLICY_UNKNOWN_IDENTIFIER" });
  });

  it("explain that user is only a lambda variable", () => {
    expectFailure(() => check("user.id == 'x'"), {
      reason: "POLICY_UNKNOWN_IDENTIFIER",
      position: 0,
      message: /lambda/,
    });
  });

  it("report a keyword the activity does not have", () => {
    expectFailure(() => check("solana.tx.transfers.count() == 0"), {
      reason: "POLICY_MISSING_FIELD",
      position: 0,
      message: /'solana' is not present/,
    });
  });

  it("read a Date in the context as a timestamp", () => {
    const ctx = signingContext({ wallet: { created: new Date("2026-01-01T00:00:00Z") } });
    expect(check("wallet.created == Timestamp('2026-01-01T00:00:00Z')", ctx)).toBe(true);
  });

  it("refuse values the language cannot read", () => {
    const ctx = signingContext({ wallet: { id: new Map() as never } });
    expectFailure(() => check("wallet.id == 'x'", ctx), { reason: "POLICY_TYPE_MISMATCH", message: /cannot read/ });
  });
});

describe("Timestamp", () => {
  it("accepts fractions up to nanoseconds and Z, +00:00 or -00:00", () => {
    expect(check("Timestamp('2026-01-01T00:00:00Z') == Timestamp('2026-01-01T00:00:00+00:00')")).toBe(true);
    expect(check("Timestamp('2026-01-01T00:00:00.5Z') > Timestamp('2026-01-01T00:00:00.499999999Z')")).toBe(true);
    expect(check("Timestamp('2024-02-29T23:59:59Z') < Timestamp('2024-03-01T00:00:00-00:00')")).toBe(true);
  });

  it("refuses impossible dates, leap seconds and other formats", () => {
    for (const text of [
      "2025-02-29T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-06-30T23:59:60Z",
      "2026-01-01",
      "yesterday",
    ]) {
      expectFailure(() => check(`Timestamp('${text}') == Timestamp('${text}')`), {
        reason: "POLICY_INVALID_TIME",
        position: 10,
      });
    }
  });

  it("refuses a Timestamp computed from a non-string", () => {
    expectFailure(() => check("Timestamp(wallet.imported) == Timestamp(wallet.imported)"), {
      reason: "POLICY_TYPE_MISMATCH",
      message: /string arguments/,
    });
  });

  it("checks a computed argument when it is evaluated", () => {
    const ctx = signingContext({ wallet: { since: "2026-01-01T00:00:00+01:00" } });
    expectFailure(() => check("Timestamp(wallet.since) == Timestamp(wallet.since)", ctx), {
      reason: "POLICY_INVALID_TIME",
      position: 10,
    });
  });
});
