/**
 * Schema-Aligned Parser: any model answer → a value of the declared type, with every repair flagged, or a
 * `SapParseError` that says where, what was expected, what was found, and carries the raw answer.
 */

export type { Candidate, CandidateOrigin } from "./choose/candidate.js";
export type { ConstraintEvaluator } from "./coerce/coerce-context.js";
export type { CheckResult } from "./coerce/coerce-result.js";
export { findConstraint } from "./coerce/find-constraint.js";
export { explainFlags } from "./explain-flags.js";
export { FLAG_PENALTIES, type Flag, type FlagKind, scoreFlags } from "./flags.js";
export { FixingParser, fixingParse, type ParsedRoot } from "./lenient/fixing-parser.js";
export type {
  ArrayNode,
  BoolNode,
  JsonishNode,
  NullNode,
  NumberNode,
  ObjectNode,
  StringNode,
} from "./lenient/jsonish-node.js";
export { nodeFromJson, nodeToJsonText } from "./lenient/jsonish-node.js";
export { type ParseOptions, type ParseResult, parseValue } from "./parse-value.js";
export {
  SapConfigurationError,
  type SapErrorCode,
  SapParseError,
  type SapParseErrorInit,
} from "./sap-parse-error.js";
export { checkPartialValue } from "./stream/check-partial-value.js";
export {
  createStreamParser,
  type StreamParser,
  type StreamParserOptions,
  type StreamPush,
} from "./stream/create-stream-parser.js";
export { type PartialParseOptions, parsePartial } from "./stream/parse-partial.js";
export {
  type PartialField,
  type PartialType,
  partialClassFields,
  partialType,
  partialTypeOfAlias,
  partialTypeToString,
} from "./stream/partial-type.js";
export { samePartial } from "./stream/same-partial.js";
export type { WorkCounter } from "./work-counter.js";
