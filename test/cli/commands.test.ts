/**
 * The `custodian` command's own surface: version, help on every command, refusals that name what was
 * wrong, and `custodian policy check`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/dev-server.js";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

function policyFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "custodian-policy-")), "policy.json");
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe("custodian", () => {
  it("prints the package version", async () => {
    const run = await runCli(["--version"]);
    expect(run).toMatchObject({ code: 0, stdout: `custodian ${packageJson.version}\n` });
  });

  it.each([
    [["--help"], "custodian serve [options]"],
    [["serve", "-h"], "usage: custodian serve"],
    [["serve", "--help"], "--seed"],
    [["inspect", "-h"], "usage: custodian inspect"],
    [["policy", "-h"], "usage: custodian policy check FILE"],
    [["policy", "check", "-h"], "usage: custodian policy check FILE"],
  ])("answers %j with its usage", async (args, expected) => {
    const run = await runCli(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(expected);
  });

  it("names an unknown command and lists the real ones, with exit code 2", async () => {
    const run = await runCli(["sevre"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "sevre"');
    expect(run.stderr).toContain("serve, inspect, policy");
  });

  it("refuses an unknown option of a command with exit code 2, naming the closest one", async () => {
    const run = await runCli(["serve", "--prot", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "custodian: unknown option --prot; did you mean --port? (custodian serve --help lists them)\n",
    );
  });

  it.each([
    [["serve", "--log-formt=json"], "unknown option --log-formt; did you mean --log-format?"],
    [["serve", "--postgress", "postgres://x"], "unknown option --postgress; did you mean --postgres?"],
    [["inspect", "--activites", "3"], "unknown option --activites; did you mean --activities?"],
    [["policy", "check", "--hlep"], "unknown option --hlep; did you mean --help?"],
    [["serve", "--zzzzzzzzzz"], "unknown option --zzzzzzzzzz (custodian serve --help lists them)"],
  ])("answers %j with the closest flag, if any", async (args, expected) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(expected);
  });
});

describe("custodian policy check", () => {
  it("explains each valid policy: when it applies, whose approval it needs, what it reads", async () => {
    const file = policyFile({
      policies: [
        {
          policyName: "treasury sends",
          effect: "EFFECT_ALLOW",
          condition:
            "activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && eth.tx.to == '0x0000000000000000000000000000000000000001'",
          consensus: "approvers.count() >= 2",
        },
        { policyName: "no exports", effect: "EFFECT_DENY", condition: "activity.action == 'EXPORT'" },
      ],
    });
    const run = await runCli(["policy", "check", file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('policy "treasury sends" (EFFECT_ALLOW): valid');
    expect(run.stdout).toContain("(reads activity, eth)");
    expect(run.stdout).toContain("(reads approvers)");
    expect(run.stdout).toContain("once the approvals above are in");
    expect(run.stdout).toContain('policy "no exports" (EFFECT_DENY): valid');
    expect(run.stdout).toContain("a deny wins over every allow");
  });

  it("refuses a broken expression, pointing at the character at fault, with exit code 1", async () => {
    const file = policyFile([
      { policyName: "fine", effect: "EFFECT_ALLOW", condition: "activity.resource == 'WALLET'" },
      { policyName: "typo", effect: "EFFECT_ALLOW", condition: "activity.type === 'X'" },
      { policyName: "wrong field", effect: "EFFECT_ALLOW", condition: "approvers.count() > 1" },
      { policyName: "no effect", condition: "true" },
    ]);
    const run = await runCli(["policy", "check", file]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines).toContain('policy "fine" (EFFECT_ALLOW): valid');
    const typo = lines.findIndex((line) => line.startsWith('policy "typo": refused: condition:'));
    expect(typo).toBeGreaterThan(-1);
    expect(lines[typo + 1]).toBe("    activity.type === 'X'");
    expect(lines[typo + 2]).toMatch(/^ {4} *\^ \(character \d+\)$/);
    expect(run.stdout).toMatch(/policy "wrong field": refused: condition: .*approvers/);
    expect(run.stdout).toContain('policy "no effect": refused: effect: expected EFFECT_ALLOW or EFFECT_DENY');
  });

  it("refuses a field its keyword does not have, naming the closest, and warns of a checksummed eth address", async () => {
    const address = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
    const file = policyFile([
      { policyName: "treasury", effect: "EFFECT_ALLOW", condition: "eth.tx.recipient == '0xabc'" },
      { policyName: "usdc", effect: "EFFECT_ALLOW", condition: `eth.tx.to == '${address}'` },
    ]);
    const run = await runCli(["policy", "check", file]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    const refused = lines.findIndex((line) =>
      line.startsWith("policy \"treasury\": refused: condition: eth.tx has no field 'recipient' (did you mean 'to'?)"),
    );
    expect(refused).toBeGreaterThan(-1);
    expect(lines[refused + 2]).toBe(`    ${" ".repeat(7)}^ (character 7)`);
    expect(lines).toContain('policy "usdc" (EFFECT_ALLOW): valid, with warnings');
    expect(run.stdout).toContain(
      `  warning       condition: the address '${address}' is not lower case, and eth values are, so it never ` +
        `matches; write '${address.toLowerCase()}'`,
    );
  });

  it("names a file that is not JSON", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "custodian-policy-")), "broken.json");
    writeFileSync(path, "{ effect: ");
    const run = await runCli(["policy", "check", path]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`custodian: ${path}:`);
  });
});
