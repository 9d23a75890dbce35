/**
 * Spans and log events for every call, in BAML's tracing shape: `traceAsync` / `traceSync` wrap a user
 * function in a span, `setTags` labels the current span (and every call inside it), `onLogEvent` receives a
 * `BamlLogEvent` when a span ends, and `flush()` resolves once every pending event has been delivered.
 * Spans nest: a traced function contains the LLM functions it calls, and each of those contains its HTTP
 * attempts (retries, fallbacks and re-asks included). Exporters (`addExporter`; the OpenTelemetry one is
 * `sapling-llm/opentelemetry`) see each span start and end. Nothing here loads a tracing library.
 */
import type { ChatMessage } from "../util/index.js";
import type { Clock } from "./call-record.js";
import type { FunctionLog, LlmCall } from "./collector.js";
import { type ContextStore, createContextStore } from "./context-store.js";

/** `trace`: a user function (`traceAsync` / `traceSync`); `function`: an LLM function; `attempt`: one HTTP call. */
export type SpanKind = "trace" | "function" | "attempt";

/** One span, as exporters see it; the runtime fills it in as the work goes, and ends it once. */
export interface SpanRecord {
  id: string;
  /** The enclosing span, `null` for a root. */
  parentId: string | null;
  rootId: string;
  kind: SpanKind;
  /** The traced function's name, the LLM function's name, or the attempt's client name. */
  name: string;
  startTimeUtcMs: number;
  /** `null` until the span ends. */
  endTimeUtcMs: number | null;
  /** Tags set on this span and inherited from its parents (`setTags`, the call's `tags`). */
  tags: Record<string, string>;
  /** The (redacted) message the work failed with, when it did. */
  error: string | null;
  /** Function spans: the call's `FunctionLog` (usage, repairs, cost, the selected attempt). */
  functionLog?: FunctionLog;
  /** Attempt spans: the attempt's `LlmCall` (model, usage, finish reason, cost, HTTP status). */
  call?: LlmCall;
  /** Attempt spans: the prompt sent, for exporters that record content (off by default). */
  prompt?: readonly ChatMessage[];
  /** Function and trace spans that succeeded: the value returned. */
  output?: unknown;
}

/** Receives spans as they start and end (an OpenTelemetry bridge, a test's list, a custom backend). */
export interface SpanExporter {
  onStart?(span: SpanRecord): void;
  onEnd(span: SpanRecord): void;
  /** Resolves once everything this exporter holds has been sent (awaited by `flush`). */
  flush?(): Promise<void>;
}

/** BAML's `BamlLogEvent`: one per span that ends. */
export interface BamlLogEvent {
  metadata: { eventId: string; parentId?: string; rootEventId: string };
  /** LLM functions: the rendered prompt of the answer used. */
  prompt?: string;
  /** LLM functions: the model's raw answer. */
  rawOutput?: string;
  /** The value returned, as JSON. */
  parsedOutput?: string;
  /** When the span started (ISO 8601). */
  startTime: string;
}

let sequence = 0;

function spanId(clock: Clock): string {
  sequence += 1;
  return `span-${clock().toString(36)}-${sequence.toString(36)}`;
}

/** The spans, tags and log events of one runtime (the generated client's `tracing.ts` exposes them). */
export class Tracer {
  readonly #clock: Clock;
  readonly #context: ContextStore<SpanRecord>;
  readonly #exporters = new Set<SpanExporter>();
  readonly #rootTags: Record<string, string> = {};
  #listener: ((event: BamlLogEvent) => void) | undefined;
  #pending: BamlLogEvent[] = [];
  #delivery: Promise<void> | undefined;
  readonly #onListenerError: (error: unknown) => void;

  constructor(clock: Clock, onListenerError: (error: unknown) => void = () => {}) {
    this.#clock = clock;
    this.#context = createContextStore<SpanRecord>();
    this.#onListenerError = onListenerError;
  }

  /** Adds an exporter; returns the function that removes it. */
  addExporter(exporter: SpanExporter): () => void {
    this.#exporters.add(exporter);
    return () => this.#exporters.delete(exporter);
  }

  /** Whether anything listens: without exporters or a log-event callback, spans cost nothing more. */
  get active(): boolean {
    return this.#exporters.size > 0 || this.#listener !== undefined;
  }

  /** BAML's `onLogEvent`: the callback receives every span's `BamlLogEvent` (`undefined` removes it). */
  onLogEvent(callback: ((event: BamlLogEvent) => void) | undefined): void {
    this.#listener = callback;
  }

  /**
   * BAML's `setTags`: labels the current traced span and every call made inside it; outside any trace,
   * every later call of this runtime.
   */
  setTags(tags: Record<string, string>): void {
    const current = this.#context.get();
    Object.assign(current === undefined ? this.#rootTags : current.tags, tags);
  }

  /** The tags a call started now inherits. */
  currentTags(): Record<string, string> {
    return { ...this.#rootTags, ...this.#context.get()?.tags };
  }

  /** The current span (a traced user function), if any. */
  current(): SpanRecord | undefined {
    return this.#context.get();
  }

  /** BAML's `traceSync`: `fn` wrapped so that each call is a span. */
  traceSync<Args extends unknown[], Result>(
    name: string,
    fn: (...args: Args) => Result,
  ): (...args: Args) => Result {
    return (...args: Args): Result => {
      const span = this.startSpan("trace", name, this.current());
      return this.#context.run(span, () => {
        try {
          const result = fn(...args);
          this.endSpan(span, { output: result });
          return result;
        } catch (error) {
          this.endSpan(span, { error: messageOf(error) });
          throw error;
        }
      });
    };
  }

  /** BAML's `traceAsync`: `fn` wrapped so that each call is a span that ends when its promise settles. */
  traceAsync<Args extends unknown[], Result>(
    name: string,
    fn: (...args: Args) => Promise<Result>,
  ): (...args: Args) => Promise<Result> {
    return (...args: Args): Promise<Result> => {
      const span = this.startSpan("trace", name, this.current());
      return this.#context.run(span, async () => {
        try {
          const result = await fn(...args);
          this.endSpan(span, { output: result });
          return result;
        } catch (error) {
          this.endSpan(span, { error: messageOf(error) });
          throw error;
        }
      });
    };
  }

  /**
   * Resolves once every log event pending now has been delivered to `onLogEvent`, and every exporter has
   * flushed (BAML's `flush`, which returns nothing; awaiting it is optional).
   */
  async flush(): Promise<void> {
    while (this.#delivery !== undefined) await this.#delivery;
    await Promise.all([...this.#exporters].map((exporter) => exporter.flush?.()));
  }

  /** Starts a span under `parent` (a root when absent); its tags start as the parent's. */
  startSpan(
    kind: SpanKind,
    name: string,
    parent: SpanRecord | undefined,
    fields: { tags?: Record<string, string>; functionLog?: FunctionLog; call?: LlmCall } = {},
  ): SpanRecord {
    const id = spanId(this.#clock);
    const span: SpanRecord = {
      id,
      parentId: parent?.id ?? null,
      rootId: parent?.rootId ?? id,
      kind,
      name,
      startTimeUtcMs: this.#clock(),
      endTimeUtcMs: null,
      tags: { ...(parent === undefined ? this.#rootTags : parent.tags), ...fields.tags },
      error: null,
      ...(fields.functionLog === undefined ? {} : { functionLog: fields.functionLog }),
      ...(fields.call === undefined ? {} : { call: fields.call }),
    };
    for (const exporter of this.#exporters) exporter.onStart?.(span);
    return span;
  }

  /** Ends a span once: exporters see it, and its log event is queued for `onLogEvent`. */
  endSpan(
    span: SpanRecord,
    outcome: {
      error?: string;
      output?: unknown;
      prompt?: string;
      rawOutput?: string | null;
      /** When the work ended, if before now (default: now). */
      endTimeUtcMs?: number;
    } = {},
  ): void {
    if (span.endTimeUtcMs !== null) return;
    span.endTimeUtcMs = outcome.endTimeUtcMs ?? this.#clock();
    if (outcome.error !== undefined) span.error = outcome.error;
    else if (outcome.output !== undefined) span.output = outcome.output;
    for (const exporter of this.#exporters) exporter.onEnd(span);
    if (this.#listener === undefined || span.kind === "attempt") return;
    const event: BamlLogEvent = {
      metadata: {
        eventId: span.id,
        ...(span.parentId === null ? {} : { parentId: span.parentId }),
        rootEventId: span.rootId,
      },
      startTime: new Date(span.startTimeUtcMs).toISOString(),
    };
    if (outcome.prompt !== undefined) event.prompt = outcome.prompt;
    if (outcome.rawOutput !== undefined && outcome.rawOutput !== null) event.rawOutput = outcome.rawOutput;
    const parsed = outcome.error === undefined ? toJson(outcome.output) : undefined;
    if (parsed !== undefined) event.parsedOutput = parsed;
    this.#pending.push(event);
    this.#scheduleDelivery();
  }

  /** Delivers queued events after the current task, so a slow callback never delays the call itself. */
  #scheduleDelivery(): void {
    if (this.#delivery !== undefined) return;
    this.#delivery = new Promise<void>((resolve) => {
      setTimeout(() => {
        while (this.#pending.length > 0) {
          const batch = this.#pending;
          this.#pending = [];
          for (const event of batch) {
            try {
              this.#listener?.(event);
            } catch (error) {
              this.#onListenerError(error);
            }
          }
        }
        this.#delivery = undefined;
        resolve();
      }, 0);
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
