export { anthropicErrorStatus, anthropicErrorTypes } from "./anthropic-error-types.js";
export { assertNever } from "./assert-never.js";
export type { ChatMessage, MediaKind, MediaValue, MessagePart } from "./chat-message.js";
export { isMediaValue } from "./chat-message.js";
export { computeLineStarts, offsetToLineColumn } from "./line-starts.js";
export { readCappedBytes } from "./read-capped-bytes.js";
export { minorVersion, SAPLING_VERSION } from "./sapling-version.js";
export { shellQuote } from "./shell-quote.js";
export { stableStringify } from "./stable-stringify.js";
