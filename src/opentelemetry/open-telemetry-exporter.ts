/**
 * Sapling's spans as OpenTelemetry spans, through `@opentelemetry/api` (an optional peer dependency, loaded
 * only by this entry point). A root Sapling span starts under the application's active context (an HTTP
 * server span, say); the rest nest as Sapling nests them: traced function > LLM function > attempts.
 */
import {
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type { SpanExporter, SpanRecord } from "../runtime/index.js";
import { endAttributes, spanName, startAttributes } from "./gen-ai-attributes.js";

export interface OpenTelemetryOptions {
  /** The tracer to use (default: `tracerProvider`'s, else the global provider's, named `sapling-llm`). */
  tracer?: Tracer;
  tracerProvider?: TracerProvider;
  /**
   * Record prompts and answers (`gen_ai.input.messages`, `gen_ai.output.messages`, `sapling.raw_output`).
   * Off by default: they may hold personal data, and they are large.
   */
  recordContent?: boolean;
}

/**
 * A span exporter for `runtime.tracing.addExporter(…)` (the generated client: `addSpanExporter(…)`) that
 * turns every traced function, LLM function and attempt into an OpenTelemetry span.
 */
export function openTelemetryExporter(options: OpenTelemetryOptions = {}): SpanExporter {
  const tracer =
    options.tracer ?? (options.tracerProvider ?? trace.getTracerProvider()).getTracer("sapling-llm");
  const recordContent = options.recordContent === true;
  const open = new Map<string, Span>();
  const parentContext = (record: SpanRecord): Context => {
    const parent = record.parentId === null ? undefined : open.get(record.parentId);
    return parent === undefined ? context.active() : trace.setSpan(context.active(), parent);
  };
  return {
    onStart(record) {
      const span = tracer.startSpan(
        spanName(record),
        {
          kind: record.kind === "attempt" ? SpanKind.CLIENT : SpanKind.INTERNAL,
          startTime: new Date(record.startTimeUtcMs),
          attributes: startAttributes(record),
        },
        parentContext(record),
      );
      open.set(record.id, span);
    },
    onEnd(record) {
      const span = open.get(record.id);
      if (span === undefined) return;
      open.delete(record.id);
      // The model is known only once the answer names it.
      span.updateName(spanName(record));
      span.setAttributes(endAttributes(record, recordContent));
      if (record.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
      span.end(new Date(record.endTimeUtcMs ?? record.startTimeUtcMs));
    },
  };
}
