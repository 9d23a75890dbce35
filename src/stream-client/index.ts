/**
 * `sapling-llm/stream-client`: reads a streamed call in a browser — `readStream(response)` rebuilds typed
 * partials from `sapling serve`'s events or `toStreamable()`'s lines, in either wire format — and the
 * delta operations both ends share. Imports nothing, so a web page ships only this.
 */
export {
  applyDelta,
  type DeltaCursor,
  type DeltaOperation,
  type DeltaPath,
  diffPartial,
} from "./partial-delta.js";
export { readStream, StreamEventError, type StreamReader } from "./read-stream.js";
