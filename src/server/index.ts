/**
 * The server room: a project's functions over HTTP as one web-standard `Request → Response` handler
 * (call, stream as server-sent events, parse, OpenAPI, docs). Browser-safe; `sapling serve` runs it on
 * node:http, and any framework that speaks web-standard requests can mount it.
 */
export type { AccessEntry, AccessListener } from "./access-log.js";
export { formatAccessEntry } from "./access-log.js";
export type { JsonSchema, SchemaDirection } from "./api-schema.js";
export { ApiSchemaBuilder } from "./api-schema.js";
export type { SaplingHandler, SaplingHandlerOptions } from "./create-sapling-handler.js";
export { createSaplingHandler } from "./create-sapling-handler.js";
export { renderDocsPage } from "./docs-page.js";
export type { ErrorBody } from "./error-response.js";
export { describeFailure, errorResponse, HttpError, jsonResponse } from "./error-response.js";
export { exampleArguments, exampleValue } from "./example-value.js";
export type { FunctionSchemas } from "./openapi-document.js";
export { createOpenApiDocument, describeFunctions } from "./openapi-document.js";
export { readJsonObject, readRequestText } from "./read-request-body.js";
export { SAPLING_HEADERS, SAPLING_MEDIA_TYPE, saplingEnvelope, saplingHeaders } from "./sapling-response.js";
