/**
 * What the corpus needs to know about one schema: the BAML function that returns it, a generator for the
 * value a careful human would extract (sized to a target), and hooks that say how a model garbles that
 * value (which fields to misspell, write as strings, split, …). Variants in `answer-variants.ts` combine
 * the hooks with writing styles.
 */
import type { JsonValue } from "./json-value.js";
import type { SeededRandom } from "./seeded-random.js";

/** One garbled field: the model wrote `answer` at `path`; a careful reader still extracts `expected`. */
export interface Garble {
  path: string;
  answer: JsonValue;
  /** When the careful reading differs from the generated value (e.g. the model's enum spelling forced). */
  expected?: JsonValue;
}

export interface ObjectSchema {
  /** Short id used in case names: `resume`, `receipt`, … */
  key: string;
  /** The BAML return type of `functionName`, as written in bench/corpus/baml_src. */
  typeExpression: string;
  functionName: string;
  /** Builds a value whose pretty JSON is close to `targetBytes` long. */
  generate(random: SeededRandom, targetBytes: number): JsonValue;
  /** A sentence a chatty model writes before the answer, about this value. */
  preamble(value: JsonValue, random: SeededRandom): string;
  /** Key order that puts a string last, so a truncated answer is cut inside a string. */
  truncationKeyOrder(path: string, keys: string[]): string[];
  /** Numbers written as strings: `"7.5"` for an int, `"$4.50"` for a float. */
  numbersAsStrings(value: JsonValue, random: SeededRandom): Garble[];
  /** Enum or literal values in the model's own spelling (`"Strong Hire"`). */
  enumSpellings?(value: JsonValue, random: SeededRandom): Garble[];
  /** A string list written as one comma-separated string. */
  commaSeparatedList?(value: JsonValue, random: SeededRandom): Garble[];
  /** A one-element list written as its element. */
  singleValueForList?(value: JsonValue, random: SeededRandom): Garble[];
}
