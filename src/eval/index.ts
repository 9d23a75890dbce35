/**
 * `sapling eval`'s engine, browser-safe: score values against expected ones field by field, run a cell
 * (client × output mode) on the batch engine as records, replay records through today's parser, sum
 * them per cell with the strict and repaired baselines, and render the report.
 */
export { CellAggregate, type CellSummary, percentile } from "./cell-summary.js";
export {
  answerText,
  cellKey,
  type EvalCell,
  type EvalMode,
  type EvalRecord,
  type EvalRepair,
  evalModes,
} from "./eval-record.js";
export { type EvalReport, renderEvalJson, renderEvalMarkdown, renderEvalTable } from "./eval-report.js";
export { measureSchemaTokens, type RequestBuilder } from "./measure-schema-tokens.js";
export { normalizeText, textSimilarity } from "./normalize-text.js";
export { recordCheckpoint } from "./record-checkpoint.js";
export { type EvalFailure, renderEvalHtml } from "./render-eval-html.js";
export { type ReplayRuntime, replayRecord } from "./replay-record.js";
export { type EvalCellOptions, runEvalCell } from "./run-eval-cell.js";
export { EvalConfigError, type FieldRule, parseScoreConfig, type ScoreConfig } from "./score-config.js";
export { RecordScorer, type ScoredRecord } from "./score-record.js";
export { deepEqual, type FieldScore, type RowScore, ValueScorer } from "./score-value.js";
export {
  type BaselineReading,
  type JsonRepair,
  repairedBaseline,
  strictBaseline,
  validateStrict,
} from "./strict-baseline.js";
