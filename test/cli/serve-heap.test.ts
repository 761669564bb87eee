import { describe, expect, it } from "vitest";
import { favoursSmallHeap } from "../../src/cli/serve.js";

describe("custodian serve's V8 heap setting", () => {
  it("favours a small heap by default", () => {
    expect(favoursSmallHeap([])).toBe(true);
    expect(favoursSmallHeap(["--enable-source-maps", "--max-old-space-size=4096"])).toBe(true);
  });

  it("keeps V8's default when node was run with --no-optimize-for-size", () => {
    expect(favoursSmallHeap(["--no-optimize-for-size"])).toBe(false);
    expect(favoursSmallHeap(["--import", "tsx", "--no-optimize_for_size"])).toBe(false);
  });
});
