/**
 * `npm run bench -- fuzz`: 10^6 seeded mutations of the conformance table's answers (truncations,
 * inserted or deleted structure characters, duplicated slices, deep nesting, huge and non-finite numbers,
 * `__proto__` keys, lone surrogates), each parsed for its own target one-shot, and every tenth one also
 * streamed in random chunks. Counts what must never happen; see bench/fuzz/fuzz-answers.ts.
 * `FUZZ_INPUTS` and `FUZZ_SEED` change the size and the seed. `FUZZ_DUMP=.tmp/fuzz.json` also writes the
 * shortest `FUZZ_EXAMPLES` (default 200) failing inputs of each category, with their targets, as JSON.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { EndExtension } from "../src/sap/stream/end-change.js";
import { emptyCounts, loadSeeds, runFuzz } from "./fuzz/fuzz-answers.js";

const STREAM_EVERY = 10;
const COUNTED = [
  "inputs",
  "untypedExceptions",
  "prototypePollution",
  "finishDisagreements",
  "lastPartialDisagreements",
  "endDecides",
  "shownThenReplaced",
  "endDropped",
  "endReplaced",
  "endExtends",
  "shownThenReplacedLoose",
  "backwardsPartials",
  "streams",
  "restartStreams",
] as const;
/** Longer mutated answers are parsed one-shot only (deep nesting makes long ones slow to stream). */
const STREAM_AT_MOST = 2_000;

export async function benchFuzz(): Promise<string> {
  const inputs = Number(process.env.FUZZ_INPUTS ?? 1_000_000);
  const seed = Number(process.env.FUZZ_SEED ?? 20261201);
  const dump = process.env.FUZZ_DUMP;
  const kept = dump ? Number(process.env.FUZZ_EXAMPLES ?? 200) : 3;
  const seeds = loadSeeds();
  const batch = 50_000;
  const total = emptyCounts();
  const started = performance.now();
  for (let done = 0; done < inputs; done += batch) {
    // Each batch has its own seed (derived from the run's), so any batch can be re-run alone.
    const counts = runFuzz(seeds, Math.min(batch, inputs - done), seed + done, {
      streamEvery: STREAM_EVERY,
      streamAtMost: STREAM_AT_MOST,
      examplesPerCategory: kept,
    });
    for (const key of COUNTED) total[key] += counts[key];
    for (const [way, count] of Object.entries(counts.endExtendsBy))
      total.endExtendsBy[way as EndExtension] = (total.endExtendsBy[way as EndExtension] ?? 0) + count;
    if (counts.maxStepsPerCharacter > total.maxStepsPerCharacter) {
      total.maxStepsPerCharacter = counts.maxStepsPerCharacter;
      total.heaviest = counts.heaviest;
    }
    for (const [category, list] of Object.entries(counts.examples)) {
      const shortest = [...(total.examples[category] ?? []), ...list].sort(
        (a, b) => a.text.length - b.text.length,
      );
      total.examples[category] = shortest.slice(0, kept);
    }
    process.stderr.write(
      `fuzz: ${done + batch} inputs, ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
  }
  if (dump) {
    mkdirSync(dirname(dump), { recursive: true });
    writeFileSync(dump, JSON.stringify({ seed, counts: total }, null, 1));
  }
  const rows = [
    ["inputs (one-shot)", total.inputs],
    [`streamed (every ${STREAM_EVERY}th, up to ${STREAM_AT_MOST} characters)`, "≈ 1 in 10"],
    ["untyped exceptions (not SapParseError)", total.untypedExceptions],
    ["prototype pollution", total.prototypePollution],
    ["stream `finish()` ≠ `parseValue`", total.finishDisagreements],
    [
      "last partial ≠ final (in partial shape; cut-off and open-ended values aside) where the answer ends settled",
      total.lastPartialDisagreements,
    ],
    [
      "… where it ends inside something unfinished, which `finish()` settles (counted, allowed)",
      total.endDecides,
    ],
    [
      "streams whose end dropped items or entries the last partial showed (`ItemDropped`, `EntryDropped`)",
      total.endDropped,
    ],
    ["streams whose end replaced a value the last partial showed by another", total.endReplaced],
    [
      "… of both, with no `ReadingSwitch` on `finish()`'s result (*shown then replaced*, `endChange`)",
      total.shownThenReplaced,
    ],
    [
      "streams whose final value only adds to the last partial (allowed; by way)",
      `${total.endExtends} (${Object.entries(total.endExtendsBy)
        .map(([way, count]) => `${way} ${count}`)
        .join(", ")})`,
    ],
    [
      "(the measure before decision 0039: a difference, and the last partial not empty as a whole)",
      total.shownThenReplacedLoose,
    ],
    ["partials that went backwards without a `ReadingSwitch` flag", total.backwardsPartials],
    [
      "streams announcing a restart (`ReadingSwitch` on some push)",
      `${total.restartStreams} of ${total.streams} (${((100 * total.restartStreams) / Math.max(1, total.streams)).toFixed(1)}%)`,
    ],
    ["most work per character (steps, answers of 64+ characters)", total.maxStepsPerCharacter.toFixed(1)],
    ["… on", `${total.heaviest?.seed ?? "–"} (${total.heaviest?.detail ?? ""})`],
  ];
  const examples = Object.entries(total.examples).flatMap(([category, list]) =>
    list
      .slice(0, 3)
      .map(
        (example) =>
          `| ${category} | ${example.seed} | \`${JSON.stringify(example.text).slice(0, 80).replaceAll("|", "\\|").replaceAll("`", "ˋ")}\` | ${example.detail.slice(0, 160).replaceAll("|", "\\|")} |`,
      ),
  );
  return [
    "## Parser fuzz run",
    "",
    `${total.inputs.toLocaleString("en")} mutated answers (seed ${seed}) from the ${seeds.length} final-mode answers of`,
    "the conformance table, each parsed for its own target: truncations, inserted or deleted structure",
    "characters, duplicated slices, deep nesting (up to 3,000 levels), huge, non-finite and >2^53",
    "numbers, `__proto__`/`constructor` keys, lone surrogates. Streams are fed in random 1–24 character",
    "chunks. Work is counted in parser steps (`ParseOptions.work`), not time. Source: `bench/fuzz.ts`,",
    "`bench/fuzz/fuzz-answers.ts`; a 10^4-input run is `test/sap-fuzz.test.ts`.",
    "",
    "| count | |",
    "|---|---:|",
    ...rows.map(([label, value]) => `| ${label} | ${value} |`),
    "",
    ...(examples.length > 0
      ? [
          "Shortest examples per category:",
          "",
          "| category | seed | input | detail |",
          "|---|---|---|---|",
          ...examples,
        ]
      : []),
  ].join("\n");
}
