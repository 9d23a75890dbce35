/**
 * The one shape every parser in the comparison has: text + the case's schema → a value, or a thrown error.
 * `final` is a whole answer; `partial` is a streaming prefix (parsers without a partial mode parse it like
 * a whole answer).
 */
export type ParseMode = "final" | "partial";

/** What a parser needs to know about the target (the fields every corpus case has). */
export interface ParseTarget {
  /** The corpus schema key: `resume`, `receipt`, `entities`, `outline`, `ticket`. */
  schema: string;
  /** The BAML function whose return type is the target. */
  functionName: string;
  /** That return type, as written in bench/corpus/baml_src. */
  typeExpression: string;
}

export interface ParserUnderTest {
  /** As shown in the report's tables. */
  name: string;
  /** Whether `partial` is a real prefix mode (false: the final parse is used for prefixes too). */
  hasPartialMode: boolean;
  /** Throws when the parser finds no value of the type. Async only when the library's API is. */
  parse(target: ParseTarget, text: string, mode: ParseMode): unknown;
}
