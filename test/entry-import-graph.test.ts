/**
 * The optional integrations stay optional: following every import from the core entry points
 * (`sapling-llm`, `sapling-llm/runtime`, `sapling-llm/testing`) never reaches `zod`, `ai` or
 * `@opentelemetry/api`, and the Zod and JSON Schema entry points load none of them either (they read the
 * schema objects passed in; Zod appears there only in `import type`, which compiles away). Only
 * `sapling-llm/ai-sdk` loads `ai`, only `sapling-llm/opentelemetry` loads `@opentelemetry/api`, and only
 * `sapling-llm/react` loads `react`.
 *
 * Cold start: fresh processes record every module they load (test/module-loads/), and the counts are held
 * to budgets — `sapling --version` loads no command, `sapling check` only the compiler, the runtime's parse
 * path no package at all (so no Zod, AI SDK, OpenTelemetry or language server), and the bundled `dist/`
 * (scripts/build-dist.ts) serves each of them from a handful of files. Files are counted, never time.
 *
 * The language server library (`vscode-languageserver`) loads only for `sapling lsp`: no package entry
 * point reaches it, and the CLI reaches it only through lazy `import()`s.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeStartupProject } from "../bench/startup/startup-project.js";
import { distBuildOptions } from "../scripts/build-dist.js";
import { SAPLING_VERSION } from "../src/util/index.js";

const srcRoot = resolve(import.meta.dirname, "..", "src");

const importPattern =
  /(?:^|\n)\s*(import|export)(\s+type\b)?[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/**
 * The packages a module loads at run time, following its relative imports (type-only imports excluded).
 * With `staticOnly`, `import()` is not followed: what a module loads before any lazy import runs.
 */
function packagesLoadedBy(entry: string, { staticOnly = false } = {}): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      if (match[2] !== undefined || (staticOnly && match[4] !== undefined)) continue;
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
  const optional = new Set(["zod", "ai", "@opentelemetry/api", "@cfworker/json-schema"]);
  // The JSON Schema validator (docs/decisions/0024-json-schema-validator.md) loads with the entries that
  // read JSON Schemas, and only with them.
  const expectedOptional: Record<string, string[]> = {
    "json-schema/index.ts": ["@cfworker/json-schema"],
    "ai-sdk/index.ts": ["ai", "@cfworker/json-schema"],
  };
  it.each([
    "index.ts",
    "runtime/index.ts",
    "testing/index.ts",
    "zod/index.ts",
    "json-schema/index.ts",
    "ai-sdk/index.ts",
    "aws-bedrock/index.ts",
    "vertex-ai/index.ts",
  ])(
    "%s never loads @opentelemetry/api (nor zod, ai or the JSON Schema validator, but where it needs them)",
    (entry) => {
      const loaded = [...packagesLoadedBy(entry)].filter((name) => optional.has(name));
      expect(loaded.sort()).toEqual((expectedOptional[entry] ?? []).sort());
    },
  );

  it("loads @opentelemetry/api from sapling-llm/opentelemetry only", () => {
    expect([...packagesLoadedBy("opentelemetry/index.ts")].filter((name) => optional.has(name))).toEqual([
      "@opentelemetry/api",
    ]);
  });

  it.each([
    "index.ts",
    "runtime/index.ts",
    "testing/index.ts",
    "stream-client/index.ts",
    "zod/index.ts",
    "json-schema/index.ts",
    "ai-sdk/index.ts",
    "object-stream/index.ts",
  ])("%s never loads react: only sapling-llm/react does", (entry) => {
    const loaded = packagesLoadedBy(entry);
    expect([...loaded].filter((name) => name === "react" || name === "react-dom" || name === "next")).toEqual(
      [],
    );
  });

  it("sapling-llm/react loads react and no runtime (a page ships only the hooks and the stream reader)", () => {
    const loaded = packagesLoadedBy("react/index.ts");
    expect([...loaded].sort()).toEqual(["react"]);
  });

  it.each(["index.ts", "runtime/index.ts", "testing/index.ts", "batch/index.ts"])(
    "%s never loads the queue packages (bullmq, ioredis): only sapling-llm/worker does",
    (entry) => {
      const loaded = packagesLoadedBy(entry);
      expect([...loaded].filter((name) => name === "bullmq" || name === "ioredis")).toEqual([]);
    },
  );

  it("sapling-llm/worker loads bullmq and ioredis", () => {
    const loaded = packagesLoadedBy("worker/index.ts");
    expect([loaded.has("bullmq"), loaded.has("ioredis")]).toEqual([true, true]);
  });

  it.each([
    "index.ts",
    "runtime/index.ts",
    "testing/index.ts",
    "zod/index.ts",
    "json-schema/index.ts",
    "ai-sdk/index.ts",
    "batch/index.ts",
    "worker/index.ts",
  ])("%s never loads the language server library", (entry) => {
    const loaded = packagesLoadedBy(entry);
    expect([...loaded].filter((name) => name.startsWith("vscode-"))).toEqual([]);
  });

  it("the CLI loads the language server library only when `sapling lsp` runs (lazy imports)", () => {
    expect(
      [...packagesLoadedBy("cli/bin.ts", { staticOnly: true })].filter((name) => name.startsWith("vscode-")),
    ).toEqual([]);
    // The walk must see the library behind the lazy imports, or the line above proves nothing.
    expect(packagesLoadedBy("cli/bin.ts").has("vscode-languageserver")).toBe(true);
  });

  it("sees through to the packages a graph loads, and tells type-only imports apart", () => {
    expect(packagesLoadedBy("ai-sdk/index.ts").has("ai")).toBe(true);
    // The Zod entry names zod in its types; that import must be the type-only kind the walk skips.
    expect(readFileSync(resolve(srcRoot, "zod/index.ts"), "utf8")).toMatch(
      /import type \* as z from "zod\/v4\/core"/,
    );
  });
});

const root = resolve(import.meta.dirname, "..");
const recordModuleLoads = resolve(import.meta.dirname, "module-loads", "record-module-loads.mjs");
const firstParse = resolve(root, "bench", "startup", "sapling-first-parse.mjs");
// Inside the repository, so that a bundle's bare imports would resolve from node_modules as in an install.
const scratch = resolve(root, ".tmp");

interface ModuleLoads {
  stdout: string;
  /** Files of this repository's src/ (or of the bundle folder), relative to it. */
  own: string[];
  /** Bytes of those files. */
  ownBytes: number;
  /** Packages loaded from node_modules. */
  packages: string[];
}

/** Runs `node [--import tsx] … args` in a fresh process and returns the modules it loaded. */
function runRecordingLoads(args: string[], { base, tsx }: { base: string; tsx: boolean }): ModuleLoads {
  mkdirSync(scratch, { recursive: true });
  const log = join(mkdtempSync(join(scratch, "module-log-")), "modules.log");
  const result = spawnSync(
    process.execPath,
    [...(tsx ? ["--import", "tsx"] : []), "--import", recordModuleLoads, ...args],
    { cwd: root, encoding: "utf8", env: { ...process.env, SAPLING_MODULE_LOG: log } },
  );
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} failed:\n${result.stderr}`);
  const files = readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file://"))
    .map((url) => decodeURIComponent(new URL(url).pathname));
  rmSync(dirname(log), { recursive: true, force: true });
  const prefix = `${base}/`;
  const own = files.filter((file) => file.startsWith(prefix));
  return {
    stdout: result.stdout,
    own: own.map((file) => file.slice(prefix.length)),
    ownBytes: own.reduce((total, file) => total + statSync(file).size, 0),
    packages: [
      ...new Set(
        files.flatMap((file) => {
          const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
          return match?.[1] === undefined || match[1] === "tsx" ? [] : [match[1]];
        }),
      ),
    ],
  };
}

/** The room (src/ folder) of a source file; `.` for the root entry's own files. */
function roomOf(file: string): string {
  return file.includes("/") ? (file.split("/")[0] ?? "") : ".";
}

describe("modules a fresh process loads, from the sources", () => {
  const srcBase = resolve(root, "src");
  let project: ReturnType<typeof writeStartupProject>;
  let folder: string;
  beforeAll(() => {
    mkdirSync(scratch, { recursive: true });
    folder = mkdtempSync(join(scratch, "startup-"));
    project = writeStartupProject(folder);
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("sapling --version loads the CLI's front door and no command", () => {
    const loads = runRecordingLoads([resolve(srcBase, "cli", "bin.ts"), "--version"], {
      base: srcBase,
      tsx: true,
    });
    expect(loads.stdout).toBe(`${SAPLING_VERSION}\n`);
    expect(new Set(loads.own.map(roomOf))).toEqual(new Set(["cli", "util", "diagnostics"]));
    expect(loads.own.filter((file) => file.startsWith("cli/commands/"))).toEqual([
      "cli/commands/sapling-version.ts",
    ]);
    expect(loads.packages).toEqual([]);
    // 26 today: bin, main, the command table, the CLI context, did-you-mean, util (its door loads each of
    // its small files: the docs' address, raceAbort, describeNetworkError and the error brand among them)
    // and diagnostics. From the sources only: the published CLI is bundled (docs/decisions/0012-bundled-dist.md).
    expect(loads.own.length).toBeLessThanOrEqual(26);
  });

  it("sapling check loads the compiler, and neither the runtime, the server nor the generator", () => {
    const loads = runRecordingLoads([resolve(srcBase, "cli", "bin.ts"), "check", "--from", project.bamlSrc], {
      base: srcBase,
      tsx: true,
    });
    expect(loads.stdout).toMatch(/^Checked .*: no problems\.$/m);
    const rooms = new Set(loads.own.map(roomOf));
    expect(
      [...rooms].filter((room) => !["cli", "util", "diagnostics", "language", "ir"].includes(room)),
    ).toEqual([]);
    expect(loads.packages).toEqual([]);
  });

  it("the runtime entry's parse path loads no package and none of the compiler, prompt, server or CLI", () => {
    const entry = resolve(srcBase, "runtime", "index.ts");
    const loads = runRecordingLoads(
      [firstParse, entry, project.irPath, project.functionName, project.answerPath],
      { base: srcBase, tsx: true },
    );
    expect(JSON.parse(loads.stdout).value).toMatchObject({
      candidate_name: "Jane Doe",
      decision: "STRONG_HIRE",
    });
    const rooms = new Set(loads.own.map(roomOf));
    // Nor the prompt room: the Jinja engine and the renderer load with a call's prompt
    // (docs/decisions/0048-lazy-prompt-renderer.md).
    expect(
      [...rooms].filter(
        (room) => !["runtime", "util", "ir", "sap", "output-schema", "llm", "stream-client"].includes(room),
      ),
    ).toEqual([]);
    // zod, ai, OpenTelemetry, a language server: none loads on a path that does not use it.
    expect(loads.packages).toEqual([]);
  });
});

describe("modules a fresh process loads, from the bundled dist", () => {
  let bundle: string;
  let project: ReturnType<typeof writeStartupProject>;
  beforeAll(async () => {
    mkdirSync(scratch, { recursive: true });
    bundle = mkdtempSync(join(scratch, "dist-"));
    project = writeStartupProject(join(bundle, "project"));
    await build({ ...distBuildOptions(bundle), sourcemap: false, logLevel: "silent" });
  });
  afterAll(() => {
    rmSync(bundle, { recursive: true, force: true });
  });

  it("serves sapling --version from a few files, with no command chunk", () => {
    const loads = runRecordingLoads([join(bundle, "cli", "bin.js"), "--version"], {
      base: bundle,
      tsx: false,
    });
    expect(loads.stdout).toBe(`${SAPLING_VERSION}\n`);
    expect(loads.packages).toEqual([]);
    // A command's own chunk is named after its module (chunks/check-….js); shared ones are chunks/chunk-….js.
    expect(loads.own.filter((file) => !/^(cli\/bin\.js|chunks\/chunk-[^/]+\.js)$/.test(file))).toEqual([]);
    // 6 files and 40 KB today (30 KB of it the diagnostics registry, which did-you-mean reads).
    expect(loads.own.length).toBeLessThanOrEqual(8);
    expect(loads.ownBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("serves sapling check from a few more", () => {
    const loads = runRecordingLoads([join(bundle, "cli", "bin.js"), "check", "--from", project.bamlSrc], {
      base: bundle,
      tsx: false,
    });
    expect(loads.stdout).toMatch(/no problems/);
    expect(loads.packages).toEqual([]);
    expect(loads.own.filter((file) => file.startsWith("chunks/check-"))).toHaveLength(1);
    // 11 files today.
    expect(loads.own.length).toBeLessThanOrEqual(14);
  });

  it("serves the runtime entry and a first parse from a handful of files, with no package", () => {
    const loads = runRecordingLoads(
      [
        firstParse,
        join(bundle, "runtime", "index.js"),
        project.irPath,
        project.functionName,
        project.answerPath,
      ],
      { base: bundle, tsx: false },
    );
    expect(JSON.parse(loads.stdout).value).toMatchObject({ decision: "STRONG_HIRE" });
    expect(loads.packages).toEqual([]);
    // 14 files today: the entry and its shared chunks. The call path loads on a call's first request
    // (docs/decisions/0043-lazy-call-path.md), so the shared code splits into more chunks than the 9 files of
    // before, and the parse path reads about 100 KB less code (665 KB against 765 KB, esbuild's metafile).
    expect(loads.own.length).toBeLessThanOrEqual(14);
  });
});
