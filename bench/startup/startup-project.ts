/**
 * The small project every cold-start measurement uses: examples/resume/baml_src (two files, under 2 KB),
 * compiled once to the IR a generated client loads, with its sources keyed `baml_src/<file>` as BAML's
 * generated client inlines them, and the README's fenced, chatty answer to parse.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compile } from "../../src/language/index.js";

const root = resolve(import.meta.dirname, "..", "..");

export interface StartupProject {
  /** The baml_src folder (for `sapling check` and `baml-cli check`). */
  bamlSrc: string;
  /** Bytes of .baml source in it. */
  sourceBytes: number;
  irPath: string;
  sourcesPath: string;
  functionName: string;
  answerPath: string;
}

/** Writes the IR and the inlined sources into `folder` (created if needed). */
export function writeStartupProject(folder: string): StartupProject {
  const bamlSrc = join(root, "examples", "resume", "baml_src");
  const sources = Object.fromEntries(
    readdirSync(bamlSrc)
      .filter((name) => name.endsWith(".baml"))
      .sort()
      .map((name) => [name, readFileSync(join(bamlSrc, name), "utf8")]),
  );
  const { ir, diagnostics } = compile(sources);
  if (!ir) throw new Error(`examples/resume does not compile: ${JSON.stringify(diagnostics)}`);
  mkdirSync(folder, { recursive: true });
  const irPath = join(folder, "ir.json");
  const sourcesPath = join(folder, "sources.json");
  writeFileSync(irPath, JSON.stringify(ir));
  writeFileSync(
    sourcesPath,
    JSON.stringify(
      Object.fromEntries(Object.entries(sources).map(([name, text]) => [`baml_src/${name}`, text])),
    ),
  );
  return {
    bamlSrc,
    sourceBytes: Object.values(sources).reduce((total, text) => total + Buffer.byteLength(text), 0),
    irPath,
    sourcesPath,
    functionName: "EvaluateResume",
    answerPath: join(root, "examples", "resume", "outputs", "fenced-chatty.txt"),
  };
}
