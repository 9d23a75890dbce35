/**
 * `npm run bench -- entries`: a partial after every 16-character chunk over answers of many entries — maps
 * and lists of 10^3, 10^4 and 10^5 scalars, lists of small objects — against the copies floor: a partial
 * handed out is never changed afterwards, so every partial is a new container per level the chunk changed
 * (for a map of n entries being written, a copy of n entries per chunk), which grows with the square of the
 * entries whatever the parser does. The parser's own work must stay proportional to what changed: the whole
 * stream within 2× of the copies alone (issue 29).
 *
 * Rows whose stream would take minutes are sampled: every chunk is appended, and in `windows` evenly spaced
 * stretches a partial is read after every chunk (the read before a stretch catches up on the text since the
 * last one, untimed); the cost per chunk read, which grows linearly along the stream, is timed there and
 * summed over the stream (marked *est.*). Their copies are sampled alike.
 *
 * With `SAPLING_BASE=<folder of another checkout>` a column times that checkout's stream too, in turn with
 * this one's (full streams only).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser, parseValue } from "../src/sap/index.js";
import { workMeter } from "../src/sap/work-meter.js";
import { formatDuration, formatRatio, markdownTable } from "./compare/markdown-table.js";
import { median } from "./compare/measure-time.js";
import { type CopyRecord, emptyCopyRecord, recordCopies, timeCopies } from "./compare/partial-copy-floor.js";

const chunkSize = 16;
/** A stream estimated to take longer than this is sampled in windows. */
const fullStreamBudgetMs = 60_000;
/** Streams of this many entries are always sampled (recording their copies alone walks 10^10 items). */
const sampledFrom = 100_000;
const windows = 12;
const windowChunks = 40;
/** `ENTRIES_SIZES=1000,10000` runs only those sizes (a quick look). */
const SIZES = (process.env.ENTRIES_SIZES ?? "1000,10000,100000").split(",").map(Number);

const schema = "class Item {\n  name string\n  qty int\n}\n";

interface Shape {
  label: string;
  type: string;
  entry: (index: number) => string;
  open: string;
  close: string;
  sizes: number[];
}

const shapes: Shape[] = [
  {
    label: "map<string, int>",
    type: "map<string, int>",
    entry: (index) => `"key-${index}": ${index}`,
    open: "{",
    close: "}",
    sizes: SIZES,
  },
  {
    label: "int[]",
    type: "int[]",
    entry: (index) => String(index),
    open: "[",
    close: "]",
    sizes: SIZES,
  },
  {
    label: "string[]",
    type: "string[]",
    entry: (index) => `"item ${index}"`,
    open: "[",
    close: "]",
    sizes: SIZES,
  },
  {
    label: "Item[] (small objects)",
    type: "Item[]",
    entry: (index) => `{"name": "item ${index}", "qty": ${index}}`,
    open: "[",
    close: "]",
    sizes: SIZES,
  },
];

interface Parsers {
  createStreamParser: typeof createStreamParser;
}

function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += chunkSize)
    chunks.push(text.slice(start, start + chunkSize));
  return chunks;
}

/** A whole stream, a partial read after every chunk: its time and the coercion steps it took. */
function wholeStream(
  parsers: Parsers,
  chunks: string[],
  type: unknown,
  ir: unknown,
  record?: CopyRecord,
): { ms: number; steps: number; partials: number } {
  const parser = parsers.createStreamParser(type as never, ir as never);
  let previous: unknown = null;
  let partials = 0;
  const steps = workMeter.steps;
  const started = performance.now();
  for (const chunk of chunks) {
    const pushed = parser.push(chunk);
    if (!pushed.changed) continue;
    partials++;
    if (record !== undefined) {
      recordCopies(pushed.value, previous, record);
      previous = pushed.value;
    }
  }
  const ms = performance.now() - started;
  return { ms, steps: workMeter.steps - steps, partials };
}

/**
 * The stream sampled in windows: every chunk appended, a partial read after every chunk of each window,
 * the reads in the windows timed and their copies recorded, both scaled up to the whole stream.
 */
function sampledStream(
  chunks: string[],
  type: unknown,
  ir: unknown,
): { ms: number; copiesMs: Promise<number>; partials: number } {
  const parser = createStreamParser(type as never, ir as never);
  const stride = Math.floor(chunks.length / windows);
  let timed = 0;
  let read = 0;
  let partials = 0;
  const record = emptyCopyRecord();
  for (let window = 0; window < windows; window++) {
    const start = window * stride + Math.floor((stride - windowChunks) / 2);
    for (let index = window * stride; index < start; index++) parser.append(chunks[index]!);
    // Catch up (untimed), and keep the partial to compare the window's first copy with.
    let previous = parser.read().value;
    const started = performance.now();
    for (let index = start; index < start + windowChunks; index++) {
      const pushed = parser.push(chunks[index]!);
      if (!pushed.changed) continue;
      partials++;
      recordCopies(pushed.value, previous, record);
      previous = pushed.value;
    }
    timed += performance.now() - started;
    read += windowChunks;
    for (let index = start + windowChunks; index < (window + 1) * stride; index++)
      parser.append(chunks[index]!);
  }
  const scale = chunks.length / read;
  return {
    ms: timed * scale,
    copiesMs: timeCopies(record).then((ms) => ms * scale),
    partials: Math.round(partials * scale),
  };
}

async function loadBase(): Promise<
  { parsers: Parsers; compile: typeof compile; parseType: typeof parseTypeExpression } | undefined
> {
  const folder = process.env.SAPLING_BASE;
  if (folder === undefined || folder === "") return undefined;
  const load = (path: string) => import(pathToFileURL(resolve(folder, path)).href);
  const sap = await load("src/sap/index.ts");
  const language = await load("src/language/index.ts");
  return {
    parsers: { createStreamParser: sap.createStreamParser },
    compile: language.compile,
    parseType: language.parseTypeExpression,
  };
}

export async function benchEntries(): Promise<string> {
  const { ir } = compile({ "schema.baml": schema });
  if (ir === undefined) throw new Error("the bench schema does not compile");
  const base = await loadBase();
  const baseIr = base?.compile({ "schema.baml": schema }).ir;
  const rows: string[][] = [];
  const ratios: number[] = [];
  const ours: Parsers = { createStreamParser };
  for (const shape of shapes) {
    const type = parseTypeExpression(shape.type, ir).type!;
    const baseType = base && baseIr ? base.parseType(shape.type, baseIr).type : undefined;
    for (const size of shape.sizes) {
      const parts: string[] = [];
      for (let index = 0; index < size; index++) parts.push(shape.entry(index));
      const text = `${shape.open}${parts.join(", ")}${shape.close}`;
      const chunks = chunksOf(text);
      const finalStarted = performance.now();
      parseValue(text, type, ir);
      const finalMs = performance.now() - finalStarted;
      // Warm up on a short stream, then time a tenth of it to tell whether the whole would take too long
      // (the cost per chunk grows linearly, so the whole is about 100× a tenth, halved for the triangle).
      wholeStream(ours, chunks.slice(0, 400), type, ir);
      const probe = wholeStream(ours, chunks.slice(0, Math.ceil(chunks.length / 10)), type, ir);
      const sampled = probe.ms * 100 > fullStreamBudgetMs || size >= sampledFrom;
      let streamMs: number;
      let copiesMs: number;
      let partials: number;
      let steps = "–";
      let baseCell = "–";
      if (sampled) {
        const sample = sampledStream(chunks, type, ir);
        streamMs = sample.ms;
        copiesMs = await sample.copiesMs;
        partials = sample.partials;
      } else {
        const record = emptyCopyRecord();
        wholeStream(ours, chunks, type, ir, record);
        copiesMs = await timeCopies(record);
        // In turn with the base's stream when there is one (ours first, then the base, then ours again).
        const runs: number[] = [];
        const baseRuns: number[] = [];
        let last = wholeStream(ours, chunks, type, ir);
        runs.push(last.ms);
        if (base && baseType) {
          baseRuns.push(wholeStream(base.parsers, chunks, baseType, baseIr).ms);
          last = wholeStream(ours, chunks, type, ir);
          runs.push(last.ms);
          baseCell = `${formatDuration(median(baseRuns))} (${formatRatio(median(baseRuns), median(runs))})`;
        }
        streamMs = median(runs);
        partials = last.partials;
        steps = (last.steps / size).toFixed(1);
      }
      ratios.push(streamMs / copiesMs);
      const estimated = sampled ? " (est.)" : "";
      rows.push([
        shape.label,
        size.toLocaleString("en-US"),
        `${(text.length / 1024).toFixed(0)} KB`,
        String(chunks.length),
        partials.toLocaleString("en-US"),
        formatDuration(finalMs),
        `${formatDuration(streamMs)}${estimated}`,
        formatDuration(copiesMs) + estimated,
        formatRatio(streamMs, copiesMs),
        steps,
        ...(base ? [baseCell] : []),
      ]);
    }
  }
  return [
    "## Streaming many entries: a partial after every chunk against the copies floor",
    "",
    `Maps and lists of many entries, cut into ${chunkSize}-character chunks, a partial read after every ` +
      "chunk (`push`, `partialIntervalMs: 0` in `b.stream` terms). *Final parse*: one `parseValue` of the " +
      "whole text (one run). *Whole stream*: every chunk pushed and its partial read. *Copies alone " +
      "(floor)*: the containers each new partial had to build (a partial handed out never changes, so each " +
      "is a new container per level the chunk changed), recorded from the stream and replayed alone (see " +
      "the streaming table): for n entries being written, a copy of up to n entries per chunk, so the " +
      "floor grows with the square of the entries. *÷ floor*: what the parser costs on top of the copies " +
      "(target: at most 2×). *Coercions per entry*: `workMeter` steps of the whole stream ÷ entries (each " +
      "finished entry is coerced once; the count does not grow with the entries). Rows marked *est.* are " +
      `sampled: ${windows} stretches of ${windowChunks} chunks read after every chunk, the rest appended, ` +
      "both the stream and its copies scaled up to the whole stream. Large objects are dictionaries in V8, " +
      "whose copy costs far more per entry than a list's, so a map's floor is much higher than a list's. " +
      (base
        ? "*Base*: the same stream with the checkout in `SAPLING_BASE`, timed in turn (its ÷ this one). "
        : "") +
      "Machine: shared with other jobs while measured (ratios within one run are what count).",
    "",
    markdownTable(
      [
        "answer",
        "entries",
        "size",
        "chunks",
        "partials",
        "final parse",
        "whole stream",
        "copies alone (floor)",
        "÷ floor",
        "coercions per entry",
        ...(base ? ["base stream"] : []),
      ],
      rows,
    ),
    "",
    `Largest whole stream ÷ floor: ${formatRatio(Math.max(...ratios), 1)} (median ${formatRatio(median(ratios), 1)}).`,
  ].join("\n");
}
