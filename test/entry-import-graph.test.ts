/**
 * The optional integrations stay optional: following every import from the core entry points
 * (`sapling-llm`, `sapling-llm/runtime`, `sapling-llm/testing`) never reaches `zod` or `ai`, and the Zod and
 * JSON Schema entry points load neither package either (they read the schema objects passed in; Zod
 * appears there only in `import type`, which compiles away). Only `sapling-llm/ai-sdk` loads `ai`.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const srcRoot = resolve(import.meta.dirname, "..", "src");

const importPattern =
  /(?:^|\n)\s*(import|export)(\s+type\b)?[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The packages a module loads at run time, following its relative imports (type-only imports excluded). */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      if (match[2] !== undefined) continue;
      const specifier = match[3] ?? match[4] ?? "";
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier).replace(/\.js$/, ".ts"));
      else
        packages.add(
          specifier.startsWith("@")
            ? specifier.split("/").slice(0, 2).join("/")
            : (specifier.split("/")[0] ?? ""),
        );
    }
  };
  visit(resolve(srcRoot, entry));
  return packages;
}

describe("entry point import graphs", () => {
  it.each(["index.ts", "runtime/index.ts", "testing/index.ts", "zod/index.ts", "json-schema/index.ts"])(
    "%s never loads zod or ai",
    (entry) => {
      const loaded = packagesLoadedBy(entry);
      expect([...loaded].filter((name) => name === "zod" || name === "ai")).toEqual([]);
    },
  );

  it("sees through to the packages a graph loads, and tells type-only imports apart", () => {
    expect(packagesLoadedBy("ai-sdk/index.ts").has("ai")).toBe(true);
    // The Zod entry names zod in its types; that import must be the type-only kind the walk skips.
    expect(readFileSync(resolve(srcRoot, "zod/index.ts"), "utf8")).toMatch(
      /import type \* as z from "zod\/v4\/core"/,
    );
  });
});
