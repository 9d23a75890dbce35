/**
 * The room table from docs/architecture.md, enforced: every relative import that leaves a room must go to
 * a room it may import, through that room's `index.ts` door; browser-safe rooms import no `node:` module.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const allowed: Record<string, readonly string[]> = {
  util: [],
  diagnostics: ["util"],
  language: ["util", "diagnostics", "ir"],
  ir: ["util"],
  sap: ["util", "ir"],
  prompt: ["util", "ir"],
  llm: ["util"],
  runtime: ["util", "ir", "sap", "prompt", "llm", "stream-client"],
  "stream-client": [],
  codegen: ["util", "ir"],
  server: ["runtime", "ir", "util"],
  "aws-bedrock": ["util", "llm"],
  "vertex-ai": ["util", "llm"],
  testing: ["runtime", "llm", "util", "aws-bedrock"],
  dev: ["util", "diagnostics", "ir", "language", "sap", "prompt", "llm", "runtime", "server"],
  cli: [
    "util",
    "diagnostics",
    "language",
    "ir",
    "sap",
    "prompt",
    "llm",
    "runtime",
    "codegen",
    "server",
    "testing",
    "batch",
    "worker",
    "dev",
    "lsp",
    "root",
    "stream-client",
    "aws-bedrock",
    "vertex-ai",
  ],
  root: ["util", "diagnostics", "language", "ir", "sap", "prompt", "llm", "runtime", "codegen"],
  "typed-schema": ["ir", "sap", "runtime"],
  zod: ["ir", "prompt", "typed-schema"],
  "json-schema": ["ir", "prompt", "typed-schema"],
  "ai-sdk": ["prompt", "typed-schema", "zod", "json-schema"],
  batch: ["util", "ir", "runtime"],
  worker: ["runtime", "batch"],
  lsp: ["diagnostics", "language", "llm"],
  opentelemetry: ["runtime"],
  // typed-schema for its types only (PartialOf); entry-import-graph.test.ts checks that nothing more loads.
  react: ["stream-client", "typed-schema"],
  "object-stream": ["typed-schema"],
};

/** Rooms that must run in browsers and edge workers: no Node built-ins. */
const browserSafe = new Set([
  "util",
  "diagnostics",
  "language",
  "ir",
  "sap",
  "prompt",
  "llm",
  "runtime",
  "codegen",
  "server",
  "dev",
  "typed-schema",
  "zod",
  "json-schema",
  "ai-sdk",
  "batch",
  "opentelemetry",
  "stream-client",
  "aws-bedrock",
  "vertex-ai",
  "react",
  "object-stream",
]);

const srcRoot = resolve(import.meta.dirname, "..", "src");

function listSources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

function roomOf(path: string): string {
  const parts = relative(srcRoot, path).split(sep);
  return parts.length === 1 ? "root" : (parts[0] ?? "root");
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(text: string): string[] {
  return [...text.matchAll(importPattern)].map((match) => match[1] ?? match[2] ?? "");
}

function findViolations(): string[] {
  const violations: string[] = [];
  for (const file of listSources(srcRoot)) {
    const room = roomOf(file);
    const text = readFileSync(file, "utf8");
    for (const specifier of importsOf(text)) {
      const where = `${relative(srcRoot, file)} imports "${specifier}"`;
      if (
        specifier.startsWith("node:") ||
        ["fs", "path", "http", "os", "child_process"].includes(specifier)
      ) {
        if (browserSafe.has(room))
          violations.push(`${where}: room "${room}" must stay free of Node built-ins`);
        continue;
      }
      if (!specifier.startsWith(".")) continue;
      const target = resolve(file, "..", specifier);
      const targetRoom = roomOf(target);
      if (targetRoom === room) continue;
      if (!(allowed[room] ?? []).includes(targetRoom)) {
        violations.push(`${where}: room "${room}" may not import room "${targetRoom}"`);
      } else if (targetRoom !== "root" && !/[/\\]index\.js$/.test(target)) {
        violations.push(`${where}: import room "${targetRoom}" through its door, ../${targetRoom}/index.js`);
      }
    }
  }
  return violations;
}

describe("room table", () => {
  it("every cross-room import follows docs/architecture.md", () => {
    expect(findViolations()).toEqual([]);
  });

  it("only src/react imports react (an optional peer, loaded by sapling-llm/react alone)", () => {
    const importers = listSources(srcRoot)
      .filter((file) =>
        importsOf(readFileSync(file, "utf8")).some((specifier) => /^react(-dom)?(\/|$)/.test(specifier)),
      )
      .map((file) => roomOf(file));
    expect(importers.length).toBeGreaterThan(0);
    expect([...new Set(importers)]).toEqual(["react"]);
  });

  it("detects a forbidden import", () => {
    expect(importsOf('import { x } from "../cli/index.js";\nexport * from "./y.js";')).toEqual([
      "../cli/index.js",
      "./y.js",
    ]);
    expect(roomOf(join(srcRoot, "sap", "coerce.ts"))).toBe("sap");
    expect(roomOf(join(srcRoot, "index.ts"))).toBe("root");
  });
});
