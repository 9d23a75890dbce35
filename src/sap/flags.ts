/**
 * Every repair the parser can make, with its penalty. A result's score is the sum of its flags'
 * penalties; the union arm and the candidate with the lowest score win. Penalties are ordered by how much
 * each repair departs from what the model wrote: reading syntax (fences, fixed JSON) is free, reading a
 * value in a nearby type costs 1, guessing from surrounding words costs more, inventing a value costs most.
 */
export const FLAG_PENALTIES = {
  /** The value came from a markdown code fence. */
  FromFence: 0,
  /** The value was found inside prose (text before/after it ignored). */
  FromProse: 0,
  /** The JSON was repaired (detail lists the repairs). */
  FixedJson: 0,
  /**
   * Several readings fitted with different values; the detail says which one was chosen, why, and how
   * many were dropped. A penalty, since the choice may be wrong (the value is not certain).
   */
  ChoseCandidate: 1,
  /** A `@check` evaluated to false (the value is kept; see `checks`). */
  CheckFailed: 0,
  /** In prefix (partial) mode: a field not seen yet. */
  Pending: 0,
  /**
   * In a stream: another reading of the answer (a later fence, another object) won once more text
   * arrived, so this partial may drop what the previous one showed. On `finish()`'s result: the end of
   * the answer dropped or replaced what the last partial showed (`endChange`).
   */
  ReadingSwitch: 0,
  /** The value was cut off (unterminated string, unclosed container, trailing number). */
  Incomplete: 1,
  /** Several objects were gathered into one list. */
  CombinedCandidates: 0,
  StringToInt: 1,
  StringToFloat: 1,
  /** A float for an int, rounded half away from zero. */
  FloatToInt: 1,
  /** A number pulled out of surrounding words or symbols (`"12 units"`, `"$1,299.99"`, `"50%"`). */
  NumberFromText: 2,
  StringToBool: 1,
  /** `yes/no`, `y/n`, `on/off`, `1/0` read as a bool. */
  BoolFromWord: 1,
  /** `true`/`false` found among other words. */
  BoolFromText: 2,
  /** `"null"`, `"None"`, `""` read as null. */
  StringToNull: 1,
  /** A number or bool where a string was expected, kept as written. */
  ScalarToString: 1,
  /** An object or array where a string was expected, kept as JSON text. */
  JsonToString: 2,
  /** A single value where a list was expected: wrapped in a one-element list. */
  SingleToList: 1,
  /** A delimited string (commas, bullets, lines) split into list items. */
  SplitString: 2,
  /** A one-element list where a single value was expected. */
  ListToSingle: 2,
  /** A list item that did not fit was dropped (detail says why). */
  ItemDropped: 1,
  /** A map entry whose key or value did not fit was dropped. */
  EntryDropped: 1,
  /** An enum value or string literal matched ignoring case, spacing and punctuation. */
  EnumCaseFold: 1,
  /** An enum value matched through its description. */
  EnumFromDescription: 1,
  /** An enum value or literal named (as whole words) inside longer text. */
  EnumSubstring: 2,
  /** An enum value or literal matched despite a small typo. */
  EnumEditDistance: 3,
  /** A key that matches no field (ignored). */
  ExtraKey: 1,
  /**
   * Two keys written differently read as the same map key (a name and its alias), or label lines read as
   * one object that write their first key again with a whole record after it: the last value is kept,
   * the first one's lost.
   */
  KeyCollision: 1,
  /** A key matched its field ignoring case, spacing and punctuation. */
  KeyCaseFold: 1,
  /** An object with a single entry where its value was expected (`{"answer": 42}` for an int). */
  UnwrappedObject: 2,
  /** A value placed in the only field of a single-field class. */
  ImpliedKey: 2,
  /** A missing optional field set to null. */
  DefaultFromMissing: 1,
  /** An optional field whose value did not fit, set to null (detail says why). */
  DefaultFromInvalid: 3,
  /** A missing (or null) required list or map set to empty. */
  EmptyFromMissing: 100,
  /**
   * In prefix (partial) mode: a complete value that final mode rejects (it does not fit a required
   * field, or an `@assert` is false). The partial keeps the object (the field null, or the value that
   * failed its assert); the final parse will fail.
   */
  WillFail: 100,
} as const;

export type FlagKind = keyof typeof FLAG_PENALTIES;

/** Where in the raw answer a repair happened: offsets, `start` inclusive, `end` exclusive. */
export interface TextSpan {
  start: number;
  end: number;
}

/**
 * One repair, where it happened and what it did. `path` is JSONPath-like: `$`, `$.skills[2]`. `span` is
 * the part of the raw answer it concerns (the value repaired; for a missing field, the object it is
 * missing from; for where the value came from, the whole reading). `parseValue` gives every flag one.
 */
export interface Flag {
  kind: FlagKind;
  path: string;
  detail: string;
  span?: TextSpan;
}

/** A flag about `node`, pointing at its text when the node was read from text (see `JsonishNode`). */
export function flagAt(
  kind: FlagKind,
  path: string,
  detail: string,
  node: { start?: number; end?: number } | undefined,
): Flag {
  const start = node?.start;
  if (start === undefined) return { kind, path, detail };
  return { kind, path, detail, span: { start, end: node!.end ?? start } };
}

/**
 * The flags with their spans moved from a reading's own text to the whole answer (`base`: where that
 * text starts in it; undefined when the reading's nodes come from several texts, whose offsets cannot be
 * told apart); a flag without a span gets `fallback`, the span of the whole reading.
 */
export function placeFlags(flags: readonly Flag[], base: number | undefined, fallback: TextSpan): Flag[] {
  return flags.map((flag) =>
    flag.span === undefined || base === undefined
      ? { ...flag, span: fallback }
      : base === 0
        ? flag
        : { ...flag, span: { start: flag.span.start + base, end: flag.span.end + base } },
  );
}

/** The score of a list of flags: the sum of their penalties. */
export function scoreFlags(flags: readonly Flag[]): number {
  let score = 0;
  for (const flag of flags) score += FLAG_PENALTIES[flag.kind];
  return score;
}
