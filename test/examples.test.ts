/**
 * Every example runs to completion, so the documentation can't rot.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";

const examples = readdirSync(new URL("../examples/", import.meta.url)).filter((name) => name.endsWith(".ts"));

describe("examples", () => {
  it("has at least the quickstart", () => {
    expect(examples).toContain("quickstart.ts");
  });
  for (const name of examples) {
    it(`runs examples/${name}`, () => {
      const output = execFileSync(process.execPath, ["--import", "tsx", `examples/${name}`], {
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(output.length).toBeGreaterThan(0);
    });
  }
});
