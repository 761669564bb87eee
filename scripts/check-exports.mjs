// Checks, after `npm run build`, that every public subpath resolves through package.json "exports" in both
// module systems, by the package's own name (Node resolves a package's self-reference), and that the bin runs.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const expected = {
  custodian: ["CustodyEngine", "CustodyError", "MemoryStore", "createSeededRandom"],
  "custodian/http": ["createHttpHandler", "createFetchHandler"],
  "custodian/file": ["FileStore"],
  "custodian/postgres": ["PostgresStore"],
  "custodian/policy": ["decide", "validatePolicyExpressions"],
  "custodian/testing": ["createTestOrganization", "generateApiKeyPair", "createInProcessFetch"],
};
let failures = 0;
for (const [specifier, names] of Object.entries(expected)) {
  const esm = await import(specifier);
  const cjs = require(specifier);
  for (const name of names) {
    for (const [kind, module] of [
      ["import", esm],
      ["require", cjs],
    ]) {
      if (module[name] === undefined) {
        console.error(`${kind}("${specifier}") lacks ${name}`);
        failures++;
      }
    }
  }
}
// An error of one build is a CustodyError to the other: hosts mixing import and require catch either.
{
  const esm = await import("custodian");
  const cjs = require("custodian");
  for (const [made, judged, label] of [
    [esm, cjs, "import's error to require's isCustodyError"],
    [cjs, esm, "require's error to import's isCustodyError"],
  ]) {
    if (!judged.isCustodyError(new made.CustodyError("NOT_FOUND", "x"))) {
      console.error(`isCustodyError: ${label} is not recognized`);
      failures++;
    }
  }
}
const help = execFileSync(process.execPath, ["dist/cli.js", "--help"], { encoding: "utf8" });
if (!help.includes("custodian serve")) {
  console.error("dist/cli.js --help does not print the usage");
  failures++;
}
if (failures > 0) process.exit(1);
console.log(`exports ok: ${Object.keys(expected).join(", ")} (import and require), bin ok`);
