/**
 * The JSON that `sapling dev`'s page and its dev-only routes exchange. One file both sides import (the
 * page imports these types only), so a field renamed on one side is a type error on the other.
 */

/** `GET /_dev/project`: what the page lists, and whether the project currently compiles. */
export interface DevProjectView {
  /** Bumped on every reload; the page refetches when an event names a newer one. */
  version: number;
  /** The baml_src folder as the user typed it. */
  root: string;
  functions: DevFunctionView[];
  clients: { name: string; provider: string }[];
  /** Compiler messages of the files as saved now; `errors > 0` means the lists show the last good state. */
  diagnostics: DevDiagnostics;
  /** Whether runs and tests go to the built-in mock LLM server by default (`--mock`); the page can switch. */
  mock: boolean;
  /** Token counts are available (js-tiktoken is installed); otherwise `install` says how to get them. */
  tokenizer: { available: boolean; encodings: string[]; install: string };
  /** What the last regeneration of baml_client/ did, one line per generator (or why it failed). */
  generated: string[];
  /**
   * What the Eval view offers: the mock answer profiles as clients (`mock/clean-json`, …), which never
   * call a model, and the dataset files (`.jsonl`, `.csv`) found in the project folder, by path inside it.
   */
  eval: { profiles: string[]; datasets: string[] };
}

export interface DevFunctionView {
  name: string;
  params: { name: string; type: string }[];
  returnType: string;
  client: string;
  /** Where it is declared (`resume.baml:24`). */
  source?: string;
  tests: DevTestView[];
  /** The arguments the page starts with when no test is picked: an example value per parameter. */
  exampleArgs: Record<string, unknown>;
  /** What the mock answers for this function unless the page says otherwise. */
  mockAnswer: string;
}

export interface DevTestView {
  /** `Function::Test`, as `sapling test` names cases. */
  id: string;
  name: string;
  /** The test's `args { … }` as JSON (media as `{ "file" | "url" | "base64" … }`). */
  args: Record<string, unknown>;
  /** The `.baml` file of the test (media `file` paths are relative to it). */
  file?: string;
  /** Why the args could not be read (an unset `env.NAME`), if so. */
  argsError?: string;
  constraints: { level: "check" | "assert"; label?: string; expression: string }[];
}

export interface DevDiagnostics {
  errors: number;
  warnings: number;
  /** Every message with its code frame, as `sapling check` prints them. */
  text: string;
  items: { severity: string; code: string; message: string; file: string; line: number; column: number }[];
}

/** `POST /_dev/prompt` body; `/_dev/run` adds the run's own fields. */
export interface DevCallRequest {
  function: string;
  args: Record<string, unknown>;
  /** A client to use instead of the function's own. */
  client?: string;
  /** The test whose args these are (media `file` paths are relative to its file). */
  test?: string;
}

export interface DevPromptPreview {
  client: { name: string; provider: string };
  messages: DevMessageView[];
  /** Summed over the messages, per encoding; `null` without the tokenizer. */
  totalTokens: Record<string, number> | null;
  /** `ctx.output_format` for the return type, and its tokens beside the equivalent minified JSON Schema. */
  schema: {
    text: string;
    tokens: Record<string, number> | null;
    jsonSchemaTokens: Record<string, number> | null;
  };
  /** The HTTP request as a cURL command, keys masked; or why it cannot be built (a missing env var). */
  curl: string;
  curlError?: string;
}

export interface DevMessageView {
  role: string;
  parts: DevPartView[];
  tokens: Record<string, number> | null;
}

export type DevPartView =
  | {
      type: "text";
      text: string;
      /** Stretches of `text` that `ctx.output_format` wrote, as offsets (`end` exclusive). */
      outputFormat: { start: number; end: number }[];
    }
  | { type: "media"; mediaType: string; kind: string; url?: string; base64Length?: number };

/** `POST /_dev/run` body. */
export interface DevRunRequest extends DevCallRequest {
  /** Send the run to the mock LLM server (default: the project view's `mock`). */
  mock?: boolean;
  /** Required for a run against a real model (not the mock): the page asks first. */
  confirm?: boolean;
  /** With the mock: the answer it streams, and whether its first attempt fails (to show the chain). */
  mockAnswer?: string;
  failFirstAttempt?: boolean;
}

/** One attempt of a run's retry/fallback chain. */
export interface DevAttemptView {
  client: string;
  provider: string;
  status: number | null;
  error: string | null;
  durationMs: number | null;
  usage: { inputTokens: number | null; outputTokens: number | null } | null;
  selected: boolean;
  finishReason: string | null;
}

/** One `@check` result found in the value (`path` into the value). */
export interface DevCheckView {
  path: string;
  name: string;
  expression: string;
  passed: boolean;
}

/** The server-sent events of `/_dev/run`. */
export interface DevRunEvents {
  partial: { raw: string; value: unknown };
  final: {
    raw: string;
    value: unknown;
    checks: DevCheckView[];
    repairs: DevRepairView[];
    latencyMs: number | null;
    usage: { inputTokens: number | null; outputTokens: number | null };
    /** In dollars, when a cost table knows the model; `null` otherwise. */
    cost: number | null;
    attempts: DevAttemptView[];
  };
  error: { message: string; code: string; raw: string | null; attempts: DevAttemptView[] };
}

export interface DevRepairView {
  kind: string;
  path: string;
  detail: string;
  span: { start: number; end: number } | null;
}

/** `POST /_dev/parse` body: an answer and a type expression (`Resume`, `string[]`). */
export interface DevParseRequest {
  type: string;
  text: string;
  partial?: boolean;
}

export type DevParseResult =
  | { ok: true; value: unknown; repairs: DevRepairView[] }
  | {
      ok: false;
      error: { message: string; path: string | null; expected: string | null; found: string | null };
    };

/** `POST /_dev/replay`: the answer cut into chunks, with the partial value after each. */
export interface DevReplayRequest {
  type: string;
  text: string;
  chunkSize: number;
}

export interface DevReplayResult {
  steps: { end: number; value: unknown }[];
  final: DevParseResult;
}

/** `POST /_dev/tests` body: the cases to run (all when absent). */
export interface DevTestsRequest {
  ids?: string[];
  mock?: boolean;
  confirm?: boolean;
  /** With the mock: the answer per function. */
  mockAnswers?: Record<string, string>;
}

export interface DevTestResult {
  id: string;
  status: "passed" | "failed" | "error" | "cancelled";
  durationMs: number;
  value?: unknown;
  constraints: { level: "check" | "assert"; label?: string; expression: string; passed: boolean }[];
  reason?: string;
  rawOutput?: string;
}

/**
 * `POST /_dev/eval` body: `sapling eval` over a dataset file of the project folder (`data`, a path inside
 * it) or the function's test blocks that name their expected value (`tests: true`).
 */
export interface DevEvalRequest {
  function: string;
  data?: string;
  tests?: boolean;
  /** A scoring file, by path inside the project folder. */
  score?: string;
  /** Clients (default: the function's) and output modes (default: prompt), as `--client` and `--mode`. */
  clients?: string[];
  modes?: string[];
  /** Delete the records first; otherwise a rerun over the same rows runs only the rows not recorded. */
  fresh?: boolean;
  /** Required when a client is not a `mock/…` answer profile: the page asks first. */
  confirm?: boolean;
}

/** `POST /_dev/eval`: the terminal's table, and where the HTML report of this run is served. */
export interface DevEvalResult {
  table: string;
  /** `GET` it for the report `sapling eval --html` writes for the same records (the page frames it). */
  reportUrl: string;
  /** The records file, by path inside the project folder (`sapling eval --replay` re-scores it). */
  records: string;
}

/** The error body every route answers with (as `sapling serve`'s). */
export interface DevErrorBody {
  error: { status: number; code: string; message: string };
}
