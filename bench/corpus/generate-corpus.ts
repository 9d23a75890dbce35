/**
 * Regenerates bench/corpus/cases/ from the seeds: `npx tsx bench/corpus/generate-corpus.ts`. The output is
 * deterministic, so a clean `git diff` after running it shows the committed corpus is what the code makes.
 * The expected-value files are then formatted with Biome, as `npm run lint` wants them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { casesDirectory, writeCorpusFiles } from "./corpus-files.js";

rmSync(casesDirectory, { recursive: true, force: true });
mkdirSync(casesDirectory, { recursive: true });
const count = writeCorpusFiles();
const biome = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "biome");
execFileSync(biome, ["format", "--write", casesDirectory], { stdio: "ignore" });
process.stdout.write(`wrote ${count} cases to ${casesDirectory}\n`);
