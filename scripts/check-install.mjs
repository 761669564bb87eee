// Packs the package as npm would publish it, installs the tarball into a scratch project in a temporary
// directory (the registry serves its dependencies), and checks what a user gets: every subpath of
// "exports" imports in ESM and requires in CJS, its declarations type-check, the engine works, and the
// `custodian` command runs. CI runs it after the build (`.ci/run`).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "custodian-install-"));
const run = (command, args, cwd = scratch) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

try {
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", scratch], root));
  console.log(`packed ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} KiB`);
  const app = join(scratch, "app");
  run("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-app", private: true, type: "module" }));
  // What a user meets: the install's time, its package count, and no engine warning on this Node.
  const started = Date.now();
  const install = spawnSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", join(scratch, packed.filename)],
    { cwd: app, encoding: "utf8" },
  );
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const packages = run("npm", ["ls", "--all", "--parseable"], app).trim().split("\n").length - 1;
  console.log(`installed in ${seconds} s: ${packages} packages`);
  if (/EBADENGINE/.test(install.stderr)) throw new Error(`the install warns about engines:\n${install.stderr}`);

  const manifest = JSON.parse(readFileSync(join(app, "node_modules/custodian/package.json"), "utf8"));
  const specifiers = Object.keys(manifest.exports)
    .filter((key) => key !== "./package.json")
    .map((key) => (key === "." ? "custodian" : `custodian/${key.slice(2)}`));

  // ESM and CJS: every subpath loads with its named exports; the engine serves a stamped request.
  writeFileSync(
    join(app, "check.mjs"),
    `${specifiers.map((s, i) => `import * as m${i} from "${s}";`).join("\n")}
import { createTestOrganization } from "custodian/testing";
for (const m of [${specifiers.map((_, i) => `m${i}`).join(", ")}]) if (Object.keys(m).length === 0) throw new Error("empty module");
const org = await createTestOrganization();
const whoami = await org.client.post("/public/v1/query/whoami");
if (whoami.userId !== org.rootUserId) throw new Error("whoami answered " + JSON.stringify(whoami));
// A snapshot is built on FileStore's compaction thread, which the package starts from its own files.
const { FileStore } = await import("custodian/file");
const { mkdtempSync } = await import("node:fs");
const store = await FileStore.open(mkdtempSync("store-"));
await store.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s" }));
await store.snapshot();
await store.close();
console.log("esm ok: ${specifiers.join(", ")}");
`,
  );
  process.stdout.write(run(process.execPath, ["check.mjs"], app));
  writeFileSync(
    join(app, "check.cjs"),
    `for (const s of ${JSON.stringify(specifiers)}) if (Object.keys(require(s)).length === 0) throw new Error(s + " is empty");
const { CustodyEngine } = require("custodian");
if (typeof new CustodyEngine().createWallet !== "function") throw new Error("no table methods");
const { FileStore } = require("custodian/file");
(async () => {
  const store = await FileStore.open(require("node:fs").mkdtempSync("store-"));
  await store.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s" }));
  await store.snapshot();
  await store.close();
  const reopened = await FileStore.open(store.directory);
  if (reopened.recovery.snapshot?.records !== 1) throw new Error("the snapshot holds " + JSON.stringify(reopened.recovery));
  await reopened.close();
  console.log("cjs ok");
})();
`,
  );
  process.stdout.write(run(process.execPath, ["check.cjs"], app));

  // Declarations: a strict ESM consumer type-checks against every subpath's types.
  writeFileSync(
    join(app, "check-types.mts"),
    `${specifiers.map((s, i) => `import * as t${i} from "${s}";`).join("\n")}
import { createTestOrganization } from "custodian/testing";
const org = await createTestOrganization();
const { activity } = await org.root.createWallet({ organizationId: org.organizationId, parameters: { walletName: "w", accounts: [] } });
const id: string = activity.id;
export const used = [id, ${specifiers.map((_, i) => `t${i}`).join(", ")}];
`,
  );
  const compilerOptions = { strict: true, noEmit: true, module: "nodenext", target: "es2022", lib: ["es2022", "dom"] };
  // A Node app has @types/node; borrow ours rather than fetch it.
  Object.assign(compilerOptions, { types: ["node"], typeRoots: [join(root, "node_modules/@types")] });
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["check-types.mts"] }));
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  try {
    run(process.execPath, [tsc, "-p", "tsconfig.json"], app);
  } catch (error) {
    throw new Error(`the installed declarations do not type-check:\n${error.stdout}`);
  }
  console.log("types ok");

  const help = run(join(app, "node_modules/.bin/custodian"), ["--help"], app);
  if (!help.includes("custodian serve")) throw new Error(`custodian --help printed:\n${help}`);
  console.log("bin ok: custodian --help");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
