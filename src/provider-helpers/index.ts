/**
 * The `provider-helpers` room: what a provider adapter builds with (the `llm` room's adapters, and the
 * `aws-bedrock` and `vertex-ai` rooms'): the failures of a request and its answer (`LlmHttpError`, …,
 * subclasses of `llm`'s `LlmError`), wire values, the readers' two errors, role turns, strict JSON schemas,
 * tool-call wire helpers, reasoning readers, the file read cache. A room apart from `llm` so that the `llm`
 * door, which the runtime entry imports, does not re-export them: they load with the adapters on a call's
 * first request (docs/decisions/0049-provider-helpers-room.md). From `llm` it takes types and `LlmError`;
 * the `llm` door never imports this room (only its lazily loaded files do), so no module cycle forms.
 */

export { ProviderStreamError, ResponseShapeError } from "./adapter-errors.js";
export {
  isRecord,
  mergeHeaders,
  messageText,
  optionalNumber,
  optionFields,
  withQuery,
} from "./adapter-values.js";
export type { MediaFailure, TimeoutKind } from "./llm-call-errors.js";
export {
  LlmAbortError,
  LlmConnectionError,
  LlmHttpError,
  LlmMalformedResponseError,
  LlmMediaError,
  LlmOptionsError,
  LlmTimeoutError,
} from "./llm-call-errors.js";
export { ReadCache } from "./read-cache.js";
export type { ReasoningReader } from "./reasoning-reader.js";
export { eventJson, textOf } from "./reasoning-reader.js";
export type { RoleTurn, TurnPart } from "./role-turns.js";
export { splitSystemTurn, toRoleTurns, turnText } from "./role-turns.js";
export { enumOfConstants, toStrictJsonSchema, withoutDialect } from "./strict-json-schema.js";
export { addOutputFields, argumentsText, readToolEvent, toolCall, toolCallDeltas } from "./tool-call-wire.js";
