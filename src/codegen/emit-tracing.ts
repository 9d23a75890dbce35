import type { GenerationContext } from "./generation-context.js";
import { banner, RUNTIME_MODULE, relativeModule } from "./module-text.js";

/**
 * `tracing.ts`: BAML's tracing functions with BAML's names (`traceAsync`, `traceSync`, `setTags`,
 * `flush`, `onLogEvent`), BAML's `setLogLevel` / `getLogLevel`, and Sapling's `addSpanExporter` (the
 * OpenTelemetry exporter of `sapling-llm/opentelemetry` goes there), all over the client's one runtime.
 */
export function emitTracing(generation: GenerationContext): string {
  return `${banner()}import {
  type BamlLogEvent,
  getLogLevel as getProcessLogLevel,
  type LogLevel,
  parseLogLevel,
  type SpanExporter,
  setLogLevel as setProcessLogLevel,
} from "${RUNTIME_MODULE}";
import { runtime } from "${relativeModule("globals", generation.importExtension)}";

/** Wraps \`fn\` so that each call is a span containing the LLM functions it calls (BAML's \`traceAsync\`). */
export function traceAsync<Args extends unknown[], Result>(
  name: string,
  fn: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  return runtime.tracing.traceAsync(name, fn);
}

/** Wraps a synchronous \`fn\` so that each call is a span (BAML's \`traceSync\`). */
export function traceSync<Args extends unknown[], Result>(
  name: string,
  fn: (...args: Args) => Result,
): (...args: Args) => Result {
  return runtime.tracing.traceSync(name, fn);
}

/** Labels the current traced span and every call inside it (outside a trace: every later call). */
export function setTags(tags: Record<string, string>): void {
  runtime.tracing.setTags(tags);
}

/** Resolves once every pending log event has been delivered to \`onLogEvent\` and the exporters. */
export function flush(): Promise<void> {
  return runtime.tracing.flush();
}

/** Receives a \`BamlLogEvent\` as each traced span and LLM function ends (\`undefined\` removes it). */
export function onLogEvent(callback: ((event: BamlLogEvent) => void) | undefined): void {
  runtime.tracing.onLogEvent(callback);
}

/** Sends every span to \`exporter\` (e.g. \`openTelemetryExporter()\`); returns the function that removes it. */
export function addSpanExporter(exporter: SpanExporter): () => void {
  return runtime.tracing.addExporter(exporter);
}

/**
 * The level of the lines written from now on (\`BAML_LOG\` sets the first one): trace, debug, info, warn,
 * error or off, in any case (BAML's \`"WARN"\` too). One level for the process, as in BAML: the
 * package's \`setLogLevel\` (every runtime without a level of its own follows it).
 */
export function setLogLevel(level: LogLevel | (string & {})): void {
  const parsed = parseLogLevel(level);
  if (parsed === undefined) {
    throw new Error(\`setLogLevel: "\${level}" is not a log level; use trace, debug, info, warn, error or off.\`);
  }
  setProcessLogLevel(parsed);
}

/** The process's level (what \`setLogLevel\` or \`BAML_LOG\` set). */
export function getLogLevel(): LogLevel {
  return getProcessLogLevel();
}
`;
}
