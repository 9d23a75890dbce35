/**
 * `sapling-llm/opentelemetry`: Sapling's calls as OpenTelemetry spans (GenAI semantic conventions). The
 * only room that loads `@opentelemetry/api`, an optional peer dependency; without this entry point nothing
 * of OpenTelemetry is loaded. See docs/opentelemetry.md.
 */
export type { AttributeValue, SpanAttributes } from "./gen-ai-attributes.js";
export { endAttributes, spanName, startAttributes } from "./gen-ai-attributes.js";
export type { OpenTelemetryOptions } from "./open-telemetry-exporter.js";
export { openTelemetryExporter } from "./open-telemetry-exporter.js";
