/** DocumentOutline: sections nest sections (a recursive class); scales by the number of top sections. */
import type { ObjectSchema } from "../corpus-schema.js";
import type { JsonObject } from "../json-value.js";
import { createSeededRandom, type SeededRandom } from "../seeded-random.js";
import { headingTopics, summaryFragments } from "../word-lists.js";
import { sizeToTarget } from "./size-to-target.js";

function section(random: SeededRandom, depth: number): JsonObject {
  const topic = random.pick(headingTopics);
  const childCount = depth >= 2 ? 0 : random.integer(0, 2 - depth);
  return {
    heading:
      depth === 0 ? topic : `${topic} (${random.pick(["part", "appendix", "note"])} ${random.integer(1, 9)})`,
    summary: `This section ${random.pick(summaryFragments)}.`,
    subsections: Array.from({ length: childCount }, () => section(random, depth + 1)),
  };
}

function outline(seed: number, sectionCount: number): JsonObject {
  const random = createSeededRandom(seed);
  return {
    title: `Design review: ${random.pick(headingTopics).toLowerCase()} of the ${random.pick(["payments", "search", "ingest", "billing"])} service`,
    word_count: random.integer(800, 12000),
    sections: Array.from({ length: sectionCount }, () => section(random, 0)),
  };
}

export const outlineSchema: ObjectSchema = {
  key: "outline",
  typeExpression: "DocumentOutline",
  functionName: "ExtractOutline",
  generate: (random, targetBytes) => {
    const seed = random.integer(0, 2 ** 31);
    return sizeToTarget(targetBytes, (count) => outline(seed, count));
  },
  preamble: (value, random) =>
    random.pick([
      `The document "${(value as JsonObject).title as string}" has a clear structure. Here is its outline.`,
      "Sure! I outlined the document section by section, keeping the nesting of the headings.",
      "Below is the outline. I counted words approximately.",
    ]),
  // Summary after the subsections: the last string written is the summary of the last top section.
  truncationKeyOrder: (path, keys) =>
    path === "" ? keys : [...keys.filter((key) => key !== "summary"), "summary"],
  numbersAsStrings: (value) => {
    const count = (value as JsonObject).word_count as number;
    return [{ path: "word_count", answer: `about ${count.toLocaleString("en-US")} words` }];
  },
};
