/**
 * `sapling-llm/object-stream`: the server half of `useSaplingObject` (`sapling-llm/react`) for projects
 * without `.baml` — a model's text stream parsed toward a Zod or JSON Schema as it arrives, sent as the
 * NDJSON partial lines `readStream` reads. Imports neither React nor a schema library, so a route handler
 * (Next, Remix, Hono, a worker) loads only the parser it was handed.
 */
export { type StreamObjectResponseOptions, streamObjectResponse } from "./stream-object-response.js";
