// `npm run prepare`: builds dist/ so that installing from a git URL or a local path gives a working package
// and CLI (npm runs `prepare` for git dependencies, for `npm pack`, and on a bare `npm install` here).
// A bare `npm install` in a checkout whose dist/ is newer than every build input skips the build (seconds
// instead of half a minute); `npm run build` always builds.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const STAMP = "dist/index.js";
const INPUTS = ["src", "package.json", "tsup.config.ts", "tsconfig.json"];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

const upToDate = existsSync(STAMP) && statSync(STAMP).mtimeMs > Math.max(...INPUTS.filter(existsSync).map(newestMtime));
if (upToDate) {
  console.error("custodian: dist/ is newer than its sources; not rebuilding (npm run build forces it)");
} else {
  // The build's output goes to stderr: `npm pack --json` runs this and its stdout must stay JSON.
  execFileSync("npm", ["run", "build"], { stdio: ["ignore", 2, 2], shell: process.platform === "win32" });
}
