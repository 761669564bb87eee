import { describe, expect, it, vi } from "vitest";

describe("isCustodyError", () => {
  it("recognizes an error made by another copy of the module, where instanceof cannot", async () => {
    const first = await import("../../src/common/errors.js");
    vi.resetModules();
    const second = await import("../../src/common/errors.js");
    expect(second.CustodyError).not.toBe(first.CustodyError);

    const fromSecond = new second.CustodyError("NOT_FOUND", "wallet not found: w", { field: "walletId" });
    expect(fromSecond instanceof first.CustodyError).toBe(false);
    expect(first.isCustodyError(fromSecond)).toBe(true);
    expect(second.isCustodyError(new first.CustodyError("INTERNAL", "x"))).toBe(true);
  });

  it("refuses look-alikes: plain errors, objects with a code, and values that are not objects", async () => {
    const { isCustodyError } = await import("../../src/common/errors.js");
    expect(isCustodyError(new Error("boom"))).toBe(false);
    expect(isCustodyError({ name: "CustodyError", code: "NOT_FOUND", message: "x", details: {} })).toBe(false);
    expect(isCustodyError(null)).toBe(false);
    expect(isCustodyError("CustodyError")).toBe(false);
  });

  it("keeps the mark out of the error's JSON and its enumerable members", async () => {
    const { CustodyError } = await import("../../src/common/errors.js");
    const error = new CustodyError("INVALID_ARGUMENT", "bad", { field: "walletName" });
    expect(
      Object.getOwnPropertySymbols(error).every((symbol) => !Object.prototype.propertyIsEnumerable.call(error, symbol)),
    ).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: "INVALID_ARGUMENT",
      message: "bad",
      details: { field: "walletName" },
    });
  });
});
