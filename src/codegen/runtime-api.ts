/**
 * The names generated code uses from `sapling-llm/runtime` (its public contract, docs/architecture.md), in
 * one place so the emitters and a reader agree on them.
 */
export const runtimeApi = {
  /** `checkGeneratedVersion(version)`: throws when the installed runtime has another minor version. */
  checkVersion: "checkGeneratedVersion",
  /** `SaplingRuntime.fromIr(ir, { env })`, with `call`, `stream`, `buildRequest`, `parse`, `parseStream`. */
  runtime: "SaplingRuntime",
  /**
   * Per-call options: `clientRegistry`, `client`, `collector`, `env`, `tags`, `signal`, `tb`,
   * `parseRecovery`, `outputMode`. Generated clients take this type as it is (`BamlCallOptions`), so an
   * option added to the runtime is in every generated client's signatures.
   */
  callOptions: "CallOptions",
  /** What `runtime.stream` returns: async iterable of partials, `getFinalResponse()`, `toStreamable()`. */
  stream: "SaplingStream",
  /** What `runtime.buildRequest` resolves to: the provider HTTP request a call would send. */
  httpRequest: "HttpRequest",
} as const;

/** The parameter that carries per-call options, named so no BAML parameter can shadow it (as in BAML). */
export const OPTIONS_PARAMETER = "__baml_options__";

/**
 * `b.batch.Fn` loads `sapling-llm/batch` on first use (a dynamic import), so that a client that never
 * batches never loads it; only its types are imported statically.
 */
export const BATCH_MODULE = "sapling-llm/batch";
/** `FunctionBatchOptions<Args>`: `runBatch`'s options plus `id(args, index)`. */
export const BATCH_OPTIONS = "FunctionBatchOptions";
/** `BatchReport<T>`: results in input order, counts, and why the run stopped early. */
export const BATCH_REPORT = "BatchReport";
