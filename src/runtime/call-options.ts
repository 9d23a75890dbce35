import type { Ir } from "../ir/index.js";
import type { OutputMode } from "../llm/index.js";
import type { Flag } from "../sap/index.js";
import type { ClientRegistry } from "./client-registry.js";
import type { Collector, FunctionLog } from "./collector.js";
import type { Environment } from "./resolve-options.js";

/**
 * Beyond BAML, off by default: what to do when a model answers but the answer cannot be parsed (or ends
 * for a disallowed finish reason). BAML stops there and throws; these options trade extra calls for
 * resilience.
 */
export interface ParseRecovery {
  /** Re-ask the same client up to this many times, showing it its answer and the parse error. */
  reask?: number | undefined;
  /** Then move on to the next client of the fallback chain (remaining retries of that client are skipped). */
  nextClient?: boolean | undefined;
}

/** Anything that can change the schema for one call; the runtime's `TypeBuilder` is one. */
export interface SchemaExtension {
  applyTo(ir: Ir): Ir;
}

/** What a validator is told of the answer behind the value: its text and the parser's repairs. */
export interface ValidatedAnswer {
  text: string;
  repairs: readonly Flag[];
}

/** One problem an output validator found in the parsed value. */
export interface OutputIssue {
  /** Where in the value, as keys and indexes (`["items", 0, "total"]`). */
  path: readonly PropertyKey[];
  message: string;
}

/** What an output validator says: the value to return (it may transform it), or what is wrong with it. */
export type OutputValidation = { value: unknown } | { issues: readonly OutputIssue[] };

/** Why `onTick` was called; BAML 0.226.2 has the one reason `"Unknown"`. */
export type TickReason = "Unknown";

/**
 * Per-call options (BAML's `BamlCallOptions`), also accepted by `b.withOptions`. Every option also accepts
 * `undefined`, so callers compiled with `exactOptionalPropertyTypes` can pass options through.
 */
export interface CallOptions {
  /** Clients defined in code; its primary client (if set) replaces the function's client. */
  clientRegistry?: ClientRegistry | undefined;
  /** A client name or `"provider/model"` shorthand to use instead of the function's client. */
  client?: string | undefined;
  /** One or more collectors that record this call. */
  collector?: Collector | Collector[] | undefined;
  /** Environment variables merged over the runtime's for this call (`env.NAME` in client options). */
  env?: Environment | undefined;
  /** Labels recorded on the call's `FunctionLog`. */
  tags?: Record<string, string> | undefined;
  /** Cancels the call (`BamlAbortError`), including retry waits and open streams. */
  signal?: AbortSignal | undefined;
  /** A TypeBuilder: adds or extends `@@dynamic` classes and enums for this call. */
  tb?: SchemaExtension | undefined;
  /** Opt-in recovery from unparseable answers (not BAML's behaviour; off by default). */
  parseRecovery?: ParseRecovery | undefined;
  /**
   * Sapling addition: how the structured answer is asked for — `"prompt"` (BAML's way: the schema in
   * the prompt), `"tools"` (the return type's classes sent as native tools) or `"native"` (a schema the
   * provider enforces). Overrides the clients' `output_mode` option; default `"prompt"`. The answer is
   * parsed by the Schema-Aligned Parser in every mode. See docs/runtime.md, "Output modes".
   */
  outputMode?: OutputMode | undefined;
  /**
   * BAML's `onTick(reason, log)`: called as the answer streams (each reasoning or text chunk, and as each
   * attempt ends), in `b.Fn` and `b.stream.Fn` alike, with the call's `FunctionLog` as the Collector
   * builds it. The reasoning text so far is `log.calls.at(-1)?.reasoning`. A `b.Fn` with `onTick` streams
   * its answer, as in BAML. A throwing callback is reported through the logger and the call goes on.
   */
  onTick?: ((reason: TickReason, log: FunctionLog | null) => void) | undefined;
  /**
   * Streams only: hand each consumer at most one partial per this many milliseconds (BAML's tick; default
   * none: a partial whenever the consumer asks). The last partial, the final value and errors are never
   * held back.
   */
  partialIntervalMs?: number | undefined;
  /**
   * Sapling addition: rules the parsed value must also meet (a Zod schema's refinements, say), run on each
   * parsed answer. The value it returns is the call's value; issues fail the attempt as a
   * `BamlValidationError` (raw answer kept, issues in `detail`), which `parseRecovery.reask` re-asks with
   * the issues shown to the model. `extract` in `sapling-llm/zod` passes the schema's validation here.
   */
  validateOutput?:
    | ((value: unknown, answer: ValidatedAnswer) => OutputValidation | Promise<OutputValidation>)
    | undefined;
}
