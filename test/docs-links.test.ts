/**
 * Messages and usage texts point at docs/ pages by URL: the npm package ships `dist/` and the README, so a
 * bare `docs/runtime.md` in an error names a file the user does not have. Each URL must name a page and a
 * heading that exist.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { docsUrl, REPOSITORY_URL } from "../src/util/index.js";

const root = join(import.meta.dirname, "..");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

describe("links to the docs", () => {
  it("use the repository's address from package.json", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      homepage: string;
      files: string[];
    };
    expect(manifest.homepage.replace(/#.*$/, "")).toBe(REPOSITORY_URL);
    // The reason for URLs: docs/ is not in the package.
    expect(manifest.files.some((entry) => entry.startsWith("docs"))).toBe(false);
  });

  it("are never a bare docs/*.md path in a message or usage text", () => {
    const bare: string[] = [];
    for (const file of [...sourceFiles(join(root, "src")), ...sourceFiles(join(root, "ui", "src"))]) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          const code = line.trim();
          // Comments are for readers of the repository, who have the files.
          if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) return;
          if (/docs\/[\w-]+\.md/.test(code.replace(/\/\*.*?\*\//g, "")))
            bare.push(`${relative(root, file)}:${index + 1}: ${code}`);
        });
    }
    expect(bare).toEqual([]);
  });

  it("name pages and headings that exist", () => {
    const calls = sourceFiles(join(root, "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/docsUrl\("([^"]+)"(?:, "([^"]+)")?\)/g)].map((match) => ({
        page: match[1] as string,
        heading: match[2],
      })),
    );
    expect(calls.length).toBeGreaterThanOrEqual(6);
    for (const { page, heading } of calls) {
      const text = readFileSync(join(root, "docs", page), "utf8");
      if (heading === undefined) continue;
      const anchors = [...text.matchAll(/^#+ (.*)$/gm)].map((match) => anchorOf(match[1] as string));
      expect(anchors, `${page}#${heading}`).toContain(heading);
    }
    expect(docsUrl("runtime.md", "call-options")).toBe(
      `${REPOSITORY_URL}/blob/main/docs/runtime.md#call-options`,
    );
  });
});
