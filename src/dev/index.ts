/**
 * The dev room: `sapling dev`'s web-standard handler — the page's routes (prompt preview, runs, the parse
 * explorer, tests, live updates) in front of `sapling serve`'s handler, behind a loopback Host and Origin
 * check. Browser-safe like the server room; the CLI brings the file system, the watcher and the mock.
 */
export { checkLocalRequest } from "./check-local-request.js";
export {
  createDevHandler,
  type DevAsset,
  type DevEvalRun,
  type DevHandlerOptions,
} from "./create-dev-handler.js";
export type * from "./dev-api.js";
export { type DevCompilation, DevSession, defaultMockAnswer } from "./dev-session.js";
export { formatCurl } from "./format-curl.js";
export {
  DEV_RUN_HEADER,
  type DevMock,
  type DevMockAnswer,
  mockEnvironment,
  mockFetch,
} from "./mock-fetch.js";
export { exploreParse, replayParse, typeFromExpression } from "./parse-explorer.js";
export { type DevTokenCounter, previewPrompt } from "./prompt-preview.js";
export { collectChecks, type DevCostEstimator, runStream } from "./run-stream.js";
