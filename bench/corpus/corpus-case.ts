/** One corpus case: a raw model answer and what a careful human extracts from it. */
import type { JsonValue } from "./json-value.js";

/** Either the value a careful reader extracts, or the judgement that the answer holds no such value. */
export type ExpectedOutcome = { value: JsonValue } | { error: string };

/** A case before it is named and sized (what a variant produces). */
export interface CaseDraft {
  /** e.g. `fenced`, `trailing-commas`, `messy`. */
  variant: string;
  /** One line on what is messy about the answer. */
  note: string;
  answer: string;
  expected: ExpectedOutcome;
}

/** Nominal answer sizes: the pretty JSON of the value is close to this many bytes. */
export const corpusSizes = ["0.5k", "2k", "20k", "200k"] as const;
export type CorpusSize = (typeof corpusSizes)[number];

export const sizeBytes: Record<CorpusSize, number> = {
  "0.5k": 500,
  "2k": 2000,
  "20k": 20000,
  "200k": 200000,
};

export interface CorpusCase extends CaseDraft {
  /** `<schema>-<variant>-<size>`, also the file name under bench/corpus/cases/. */
  id: string;
  /** The schema key (`resume`, `receipt`, `entities`, `outline`, `ticket`). */
  schema: string;
  /** The BAML function whose return type the answer must fit. */
  functionName: string;
  /** That return type, as written in the .baml file. */
  typeExpression: string;
  size: CorpusSize;
}
