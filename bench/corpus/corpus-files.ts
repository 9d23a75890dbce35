/**
 * The corpus on disk: `cases/<id>.txt` holds the raw answer byte for byte, `cases/<id>.expected.json` the
 * schema, the variant, a note and the expected outcome. The 200 KB cases are not committed (about 2 MB of
 * text); they are rebuilt in memory from the same seeds by `loadCorpus`.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildCorpus } from "./build-corpus.js";
import type { CorpusCase } from "./corpus-case.js";

export const casesDirectory = join(import.meta.dirname, "cases");

/** Sizes kept as files; the rest are rebuilt at load time. */
export const committedSizes = ["0.5k", "2k", "20k"] as const;

/** Writes every committed case (answer + expected) into `directory`. */
export function writeCorpusFiles(directory: string = casesDirectory): number {
  const cases = buildCorpus(committedSizes);
  for (const corpusCase of cases) {
    const { id, schema, functionName, typeExpression, size, variant, note, expected } = corpusCase;
    const metadata = { id, schema, functionName, typeExpression, size, variant, note, expected };
    writeFileSync(join(directory, `${id}.txt`), corpusCase.answer);
    writeFileSync(
      join(directory, `${corpusCase.id}.expected.json`),
      `${JSON.stringify(metadata, null, 2)}\n`,
    );
  }
  return cases.length;
}

/** Reads the committed cases, then appends the 200 KB cases rebuilt from their seeds. */
export function loadCorpus(directory: string = casesDirectory): CorpusCase[] {
  const cases = readdirSync(directory)
    .filter((name) => name.endsWith(".expected.json"))
    .sort()
    .map((name) => {
      const metadata = JSON.parse(readFileSync(join(directory, name), "utf8")) as Omit<CorpusCase, "answer">;
      const answer = readFileSync(join(directory, `${metadata.id}.txt`), "utf8");
      return { ...metadata, answer };
    });
  return [...cases, ...buildCorpus(["200k"])];
}
