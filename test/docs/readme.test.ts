/**
 * The README is the front door and `docs/` the rest: every example the README shows is a whole example file that
 * `test/examples.test.ts` runs, so it runs as written, and every relative link in the documentation reaches a
 * file (and a heading, when it names one).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = join(ROOT, "README.md");

/** Files under `dir` (relative to the root) whose name ends with `suffix`, skipping generated output. */
function filesUnder(dir: string, suffix: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join("docs", "api")) found.push(...filesUnder(path, suffix));
    } else if (entry.name.endsWith(suffix)) {
      found.push(path);
    }
  }
  return found;
}

/** The text of the fenced blocks of `markdown` in `language`. */
function fencedBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map(
    (match) => match[1] as string,
  );
}

/** `markdown` without its fenced blocks, whose text is code rather than links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  return new Set([...prose(markdown).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] as string)));
}

const documents = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md", ...filesUnder("docs", ".md")];

describe("the README", () => {
  const readme = readFileSync(README, "utf8");

  it("stays a front door: under 250 lines", () => {
    expect(readme.split("\n").length).toBeLessThan(250);
  });

  it("shows each TypeScript example as the whole of an example file that CI runs", () => {
    const examples = new Map(
      filesUnder("examples", ".ts").map((path) => [readFileSync(join(ROOT, path), "utf8"), path]),
    );
    const blocks = fencedBlocks(readme, "ts");
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) {
      expect(examples.get(block), `a README block that is no example file:\n${block.slice(0, 200)}`).toBeDefined();
    }
  });

  it("links the differences from the hosted service", () => {
    expect(readme).toContain("## Differences from the hosted service");
    expect(readme).toContain("(docs/differences.md)");
  });
});

describe("the documentation's links", () => {
  for (const document of documents) {
    it(`every relative link in ${document} reaches a file`, () => {
      const text = prose(readFileSync(join(ROOT, document), "utf8"));
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const file = path === "" ? join(ROOT, document) : join(ROOT, dirname(document), path);
        if (!existsSync(file)) {
          broken.push(`${target} (no ${relative(ROOT, file)})`);
          continue;
        }
        if (anchor !== undefined && statSync(file).isFile() && file.endsWith(".md")) {
          if (!anchorsOf(readFileSync(file, "utf8")).has(anchor)) broken.push(`${target} (no such heading)`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
