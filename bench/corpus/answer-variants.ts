/**
 * The ways a model garbles an answer, each a function from the intended value to a case draft. Styles
 * (fences, prose, quotes, commas, comments, Python) change only the text; garbles (numbers as strings,
 * own enum spellings, split lists, single values) change values, and say what a careful reader extracts.
 */
import type { CaseDraft } from "./corpus-case.js";
import type { Garble, ObjectSchema } from "./corpus-schema.js";
import { type JsonValue, withOverrides } from "./json-value.js";
import type { SeededRandom } from "./seeded-random.js";
import { type AnswerStyle, jsonStyle, writeAnswer } from "./write-answer.js";

export interface AnswerVariant {
  name: string;
  note: string;
  /** Undefined when the schema has nothing this variant can garble. */
  build(schema: ObjectSchema, value: JsonValue, random: SeededRandom): CaseDraft | undefined;
}

const javascriptStyle: AnswerStyle = { ...jsonStyle, keyQuote: "", trailingCommas: true };
const pythonStyle: AnswerStyle = {
  indent: 0,
  keyQuote: "'",
  stringQuote: "'",
  trailingCommas: false,
  python: true,
};

const outros = [
  "Let me know if you need anything else!",
  "I hope this helps. Tell me if any field looks off.",
  "Note: a few values were inferred from context.",
];

const messyNote = "preamble, fence, bare keys, single quotes, trailing commas, comments, garbled values";

const fence = (text: string, tag = "json"): string => `\`\`\`${tag}\n${text}\n\`\`\``;

/** Applies garbles: the answer gets the model's values, the expected value the careful reading. */
function garbled(value: JsonValue, garbles: Garble[]): { answer: JsonValue; expected: JsonValue } {
  const answer = withOverrides(value, new Map(garbles.map((garble) => [garble.path, garble.answer])));
  const corrections = garbles.filter((garble) => garble.expected !== undefined);
  const expected = withOverrides(
    value,
    new Map(corrections.map((garble) => [garble.path, garble.expected ?? null])),
  );
  return { answer, expected };
}

/** Paths of scalar values, in writing order (for comments). */
function scalarPaths(value: JsonValue, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => scalarPaths(item, `${path}[${index}]`));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      scalarPaths(item, path === "" ? key : `${path}.${key}`),
    );
  }
  return [path];
}

function commentsFor(value: JsonValue, random: SeededRandom): Map<string, string> {
  const phrases = ["from the header", "inferred", "double-checked", "see note below", "approximate"];
  return new Map(random.sample(scalarPaths(value), 3).map((path) => [path, random.pick(phrases)]));
}

function styled(
  name: string,
  note: string,
  write: (value: JsonValue, random: SeededRandom, schema: ObjectSchema) => string,
): AnswerVariant {
  return {
    name,
    note,
    build: (schema, value, random) => ({
      variant: name,
      note,
      answer: write(value, random, schema),
      expected: { value },
    }),
  };
}

function garbling(
  name: string,
  note: string,
  hook: (schema: ObjectSchema) => ((value: JsonValue, random: SeededRandom) => Garble[]) | undefined,
): AnswerVariant {
  return {
    name,
    note,
    build: (schema, value, random) => {
      const garbles = hook(schema)?.(value, random);
      if (garbles === undefined) return undefined;
      const { answer, expected } = garbled(value, garbles);
      return { variant: name, note, answer: writeAnswer(answer, jsonStyle), expected: { value: expected } };
    },
  };
}

/** Paths of string values in the order a writer with `keyOrder` writes them. */
function stringPathsInWritingOrder(
  value: JsonValue,
  keyOrder: (path: string, keys: string[]) => string[],
  path = "",
): string[] {
  if (typeof value === "string") return [path];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => stringPathsInWritingOrder(item, keyOrder, `${path}[${index}]`));
  }
  if (typeof value !== "object" || value === null) return [];
  return keyOrder(path, Object.keys(value)).flatMap((key) =>
    stringPathsInWritingOrder(value[key] as JsonValue, keyOrder, path === "" ? key : `${path}.${key}`),
  );
}

function lookup(value: JsonValue, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    const step = match[2] === undefined ? (match[1] as string) : Number(match[2]);
    current = (current as Record<string | number, JsonValue> | null)?.[step];
  }
  return current;
}

/**
 * Cuts the answer inside its last string, as `max_tokens` does (the schema's key order puts a string last).
 * The careful reading keeps the text written so far: cut after a letter or digit, so it does not depend on
 * whether a parser trims trailing spaces.
 */
const truncated: AnswerVariant = {
  name: "truncated",
  note: "cut by max_tokens inside the last string",
  build: (schema, value) => {
    const path = stringPathsInWritingOrder(value, schema.truncationKeyOrder).at(-1);
    if (path === undefined) return undefined;
    const full = lookup(value, path) as string;
    let keep = Math.max(1, Math.floor(full.length * 0.6));
    while (keep > 1 && !/[\p{L}\p{N}]/u.test(full[keep - 1] as string)) keep -= 1;
    const marker = "@@CUT@@";
    const style: AnswerStyle = { ...jsonStyle, keyOrder: schema.truncationKeyOrder };
    const text = writeAnswer(withOverrides(value, new Map([[path, full.slice(0, keep) + marker]])), style);
    return {
      variant: "truncated",
      note: "cut by max_tokens inside the last string",
      answer: text.slice(0, text.indexOf(marker)),
      expected: { value: withOverrides(value, new Map([[path, full.slice(0, keep)]])) },
    };
  },
};

export const answerVariants: AnswerVariant[] = [
  styled("clean", "compact JSON, as a JSON mode returns it", (value) => JSON.stringify(value)),
  styled("pretty", "indented JSON", (value) => writeAnswer(value, jsonStyle)),
  styled("fenced", "JSON in a ```json fence", (value) => fence(writeAnswer(value, jsonStyle))),
  styled(
    "chatty-fenced",
    "a preamble, a fence, a closing remark",
    (value, random, schema) =>
      `${schema.preamble(value, random)}\n\n${fence(writeAnswer(value, jsonStyle))}\n\n${random.pick(outros)}`,
  ),
  styled(
    "chatty-bare",
    "a preamble and JSON without a fence",
    (value, random, schema) =>
      `${schema.preamble(value, random)}\n\n${writeAnswer(value, jsonStyle)}\n\n${random.pick(outros)}`,
  ),
  styled("trailing-commas", "a comma after every last entry", (value) =>
    writeAnswer(value, { ...jsonStyle, trailingCommas: true }),
  ),
  styled("comments", "// comments after some entries", (value, random) =>
    writeAnswer(value, { ...jsonStyle, comments: commentsFor(value, random) }),
  ),
  styled("single-quotes", "single-quoted keys and strings", (value) =>
    writeAnswer(value, { ...jsonStyle, keyQuote: "'", stringQuote: "'" }),
  ),
  styled("unquoted-keys", "a JavaScript object literal (bare keys, trailing commas)", (value) =>
    writeAnswer(value, javascriptStyle),
  ),
  styled("python-literals", "a Python literal (True/False/None, single quotes)", (value) =>
    writeAnswer(value, pythonStyle),
  ),
  truncated,
  garbling(
    "numbers-as-strings",
    '"7.5" for an int, "$4.50" for a float',
    (schema) => schema.numbersAsStrings,
  ),
  garbling(
    "enum-spelling",
    'the model\'s spelling ("Strong Hire") for enum values',
    (schema) => schema.enumSpellings,
  ),
  garbling("comma-list", "a comma-separated string for a string list", (schema) => schema.commaSeparatedList),
  garbling("single-for-list", "one value where a list is expected", (schema) => schema.singleValueForList),
  {
    name: "messy",
    note: messyNote,
    build: (schema, value, random) => {
      const garbles = [
        ...schema.numbersAsStrings(value, random),
        ...(schema.enumSpellings?.(value, random) ?? []),
      ];
      const { answer, expected } = garbled(value, garbles);
      const style: AnswerStyle = {
        ...javascriptStyle,
        stringQuote: "'",
        comments: commentsFor(answer, random),
      };
      const text = `${schema.preamble(value, random)}\n\n${fence(writeAnswer(answer, style), "javascript")}\n\n${random.pick(outros)}`;
      return {
        variant: "messy",
        note: messyNote,
        answer: text,
        expected: { value: expected },
      };
    },
  },
];

/** The variants timed at every size: what a JSON mode returns, what a chatty model returns, the worst. */
export const sizeSeriesVariants = ["clean", "chatty-fenced", "messy"] as const;
export type SizeSeriesVariant = (typeof sizeSeriesVariants)[number];
