import type { CallOptions, HttpRequest } from "../runtime/index.js";
import { Collector } from "../runtime/index.js";
import { anthropicErrorStatus, hasErrorMark, markError } from "../util/index.js";
import type { BatchCheckpoint, ProviderBatchRecord } from "./batch-checkpoint.js";
import { memoryCheckpoint } from "./batch-checkpoint.js";
import { type BatchClock, systemClock } from "./batch-clock.js";
import { type BatchResult, type BatchRow, describeRowError, rawAnswerOf } from "./batch-result.js";
import type { BatchProgress, BatchReport, BatchRuntime } from "./run-batch.js";
import { type BatchEndpoint, sendToBatchEndpoint } from "./send-to-batch-endpoint.js";
import {
  type ProviderBatchLimits,
  providerBatchLimits,
  splitProviderBatches,
} from "./split-provider-batches.js";
import { startBatch } from "./start-batch.js";

/**
 * What a batch answer costs against the list price a call pays: OpenAI's Batch API and Anthropic's
 * Message Batches both charge half.
 */
const batchPriceShare = 0.5;

/** What a provider batch needs of a runtime: `SaplingRuntime` has it. */
export interface ProviderBatchRuntime extends BatchRuntime {
  buildRequest(
    functionName: string,
    args: Record<string, unknown>,
    request: { stream: boolean },
    options?: CallOptions,
  ): Promise<HttpRequest>;
  /** The same runtime over another `fetch`: the batch's answers are read through the normal call path. */
  withFetch(fetch: typeof globalThis.fetch): BatchRuntime;
}

export interface ProviderBatchOptions {
  /** Milliseconds between polls of a submitted batch (default 30 s). */
  pollIntervalMs?: number | undefined;
  /** Stop polling after this long and leave the batch in the checkpoint (default: a day and an hour). */
  maxWaitMs?: number | undefined;
  signal?: AbortSignal | undefined;
  callOptions?: CallOptions | undefined;
  checkpoint?: BatchCheckpoint | undefined;
  retryFailed?: boolean | undefined;
  onResult?: ((result: BatchResult, index: number) => void | Promise<void>) | undefined;
  onProgress?: ((progress: BatchProgress) => void) | undefined;
  /** Called with each state a poll reports (`in_progress`, `ended`, …). */
  onPoll?: ((batch: { provider: string; id: string; status: string }) => void) | undefined;
  /**
   * The most one batch holds (default: the provider's limits, `providerBatchLimits`); more pending rows
   * are submitted as several batches, each recorded in the checkpoint before any is polled.
   */
  batchLimits?: Partial<ProviderBatchLimits> | undefined;
  /** The `fetch` for the batch endpoints (default: the global one). */
  fetch?: typeof globalThis.fetch | undefined;
  clock?: BatchClock | undefined;
}

/**
 * A provider batch that cannot go on: its client has no batch API, or the batch failed the provider's
 * validation. (An endpoint's HTTP or connection failure is the error a call raises: `BamlClientHttpError`,
 * `BamlClientError`.)
 */
export class ProviderBatchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderBatchError";
    markError(this, "ProviderBatchError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is ProviderBatchError {
    return hasErrorMark(value, "ProviderBatchError");
  }
}

type Provider = "openai" | "anthropic";

/** A downloaded answer of one row: the provider's response to its request, or why there is none. */
type RowAnswer = { status: number; body: unknown } | { missing: string; message: string };

/**
 * Runs a function over rows through the provider's batch API (about half the price, answers within a day):
 * builds each row's request as `b.request` does, submits them (OpenAI: a JSON-lines file uploaded, then a
 * batch; Anthropic: a Message Batch with the requests inline; as several batches when the rows pass the
 * provider's limits), polls, downloads the results and parses each answer with the normal call path. Every
 * batch id goes into the checkpoint before the first poll, so a restarted run resumes polling all of them
 * instead of submitting again.
 */
export async function runProviderBatch<T = unknown>(
  runtime: ProviderBatchRuntime,
  functionName: string,
  rows: readonly BatchRow[],
  options: ProviderBatchOptions = {},
): Promise<BatchReport<T>> {
  const fn = runtime.ir.functions.find((candidate) => candidate.name === functionName);
  if (!fn) throw new Error(`runProviderBatch: the project has no function named ${functionName}`);
  const clock = options.clock ?? systemClock;
  const fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const clientName = options.callOptions?.client ?? fn.client;
  // Errors of the batch endpoints name the client as a call's errors do, without its credentials.
  const endpointOf = (request: HttpRequest, provider: Provider): BatchEndpoint => ({
    fetch: fetcher,
    clientName,
    provider,
    secrets: Object.values(credentials(request)).flatMap((value) => [value, value.replace(/^Bearer /, "")]),
  });
  const checkpoint = options.checkpoint ?? memoryCheckpoint();
  const pollIntervalMs = options.pollIntervalMs ?? 30_000;
  const maxWaitMs = options.maxWaitMs ?? 25 * 60 * 60_000;
  const state = await checkpoint.load();
  const { results, pending, indexById, progress, report, snapshot } = startBatch<T>(
    "runProviderBatch",
    rows,
    state,
    { retryFailed: options.retryFailed, clock, onProgress: options.onProgress },
  );

  // Batches submitted by an earlier run whose rows still lack a result are polled, not submitted again.
  const open = state.providerBatches.filter((record) =>
    record.rows.some(
      (id) => indexById.has(id) && results[indexById.get(id) as number] === null && !state.results.has(id),
    ),
  );
  const covered = new Set(open.flatMap((record) => record.rows));
  const toSubmit = pending.filter((index) => !covered.has((rows[index] as BatchRow).id));

  // Each row's request, built once: what a new batch submits, and the key its answer is replayed under.
  const built = new Map<string, HttpRequest>();
  const requestOf = async (id: string): Promise<HttpRequest> => {
    let request = built.get(id);
    if (!request) {
      const row = rows[indexById.get(id) as number] as BatchRow;
      request = await runtime.buildRequest(functionName, row.args, { stream: false }, options.callOptions);
      built.set(id, request);
    }
    return request;
  };
  const toSubmitIds = toSubmit.map((index) => (rows[index] as BatchRow).id);
  if (toSubmitIds.length > 0) {
    const submitted: { id: string; request: HttpRequest }[] = [];
    for (const id of toSubmitIds) submitted.push({ id, request: await requestOf(id) });
    const first = (submitted[0] as { request: HttpRequest }).request;
    const provider = providerOf(first);
    for (const { request } of submitted)
      if (providerOf(request) !== provider || request.url !== first.url)
        throw new ProviderBatchError(
          "every row of a provider batch must go to the same endpoint; the function's client changed between rows",
        );
    const entries = submitted.map(({ id, request }) => ({ id, text: batchEntry(provider, id, request) }));
    const limits = { ...providerBatchLimits[provider], ...options.batchLimits };
    // Every batch is recorded before the first poll, so a stop while waiting never submits a row twice.
    for (const group of splitProviderBatches(entries, limits)) {
      const record = await submit(provider, first, group, endpointOf(first, provider), options.signal);
      await checkpoint.submitted?.(record);
      open.push(record);
    }
  }

  for (const record of open) {
    const requests = new Map<string, HttpRequest>();
    for (const id of record.rows) {
      const index = indexById.get(id);
      if (index === undefined || results[index] !== null) continue;
      requests.set(id, await requestOf(id));
    }
    const first = requests.values().next().value;
    if (!first) continue;
    // Credentials come from the requests as built now: the checkpoint never holds a key.
    const answers = await waitAndDownload(
      record,
      credentials(first),
      endpointOf(first, record.provider),
      { clock, pollIntervalMs, maxWaitMs },
      options,
    );
    // One replaying runtime per batch: each row's call is answered with that row's downloaded response.
    const byBody = new Map<string, RowAnswer>();
    const replay = runtime.withFetch(async (_input, init) => {
      const key = typeof init?.body === "string" ? init.body : "";
      const answer = byBody.get(key);
      if (!answer || "missing" in answer)
        return new Response(JSON.stringify({ error: { message: "no batch answer" } }), { status: 500 });
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    });
    for (const [id, request] of requests) {
      const index = indexById.get(id) as number;
      const answer = answers.get(id) ?? {
        missing: "ProviderBatchMissingResult",
        message: `the batch ${record.id} returned no result for row ${id}`,
      };
      let result: BatchResult<T>;
      let rowCost: number | null = 0;
      if ("missing" in answer) {
        result = { id, ok: false, error: { type: answer.missing, message: answer.message }, raw: null };
      } else {
        byBody.set(JSON.stringify(request.body), answer);
        const collector = new Collector(`batch:${id}`);
        const collectors = [collector, ...[options.callOptions?.collector ?? []].flat()];
        try {
          const value = await replay.call(functionName, (rows[index] as BatchRow).args, {
            ...options.callOptions,
            collector: collectors,
          });
          result = { id, ok: true, value: value as T, raw: collector.last?.rawLlmResponse ?? null };
          progress.repairs = (progress.repairs ?? 0) + (collector.last?.repairs.length ?? 0);
        } catch (error) {
          result = {
            id,
            ok: false,
            error: describeRowError(error),
            raw: rawAnswerOf(error) ?? collector.last?.rawLlmResponse ?? null,
          };
        }
        progress.inputTokens = (progress.inputTokens ?? 0) + (collector.usage.inputTokens ?? 0);
        progress.outputTokens = (progress.outputTokens ?? 0) + (collector.usage.outputTokens ?? 0);
        const listCost = collector.costUsd;
        rowCost = listCost === null ? null : listCost * batchPriceShare;
        progress.costUsd = progress.costUsd === null || rowCost === null ? null : progress.costUsd + rowCost;
      }
      results[index] = result;
      if (result.ok) progress.succeeded += 1;
      else progress.failed += 1;
      await checkpoint.finished(result, { costUsd: rowCost });
      await options.onResult?.(result, index);
      report();
    }
  }
  const complete = results.every((result) => result !== null);
  return {
    results,
    progress: snapshot(),
    stoppedBy: complete ? null : options.signal?.aborted ? "aborted" : "max-rows",
  };
}

function providerOf(request: HttpRequest): Provider {
  const path = new URL(request.url).pathname;
  if (path.endsWith("/chat/completions")) return "openai";
  if (path.endsWith("/v1/messages")) return "anthropic";
  throw new ProviderBatchError(
    `provider batches support OpenAI chat completions and Anthropic messages; this function's client sends to ${request.url}. Use \`sapling batch\` without --mode provider-batch for other providers.`,
  );
}

/** The request's headers for a batch endpoint: its credentials, without its content type. */
function credentials(request: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (name.toLowerCase() !== "content-type") headers[name] = value;
  return headers;
}

/** One row's entry in a batch: a line of OpenAI's input file, an element of Anthropic's `requests`. */
function batchEntry(provider: Provider, id: string, request: HttpRequest): string {
  return provider === "openai"
    ? JSON.stringify({
        custom_id: id,
        method: "POST",
        url: new URL(request.url).pathname,
        body: request.body,
      })
    : JSON.stringify({ custom_id: id, params: request.body });
}

async function submit(
  provider: Provider,
  first: HttpRequest,
  entries: { id: string; text: string }[],
  endpoint: BatchEndpoint,
  signal: AbortSignal | undefined,
): Promise<ProviderBatchRecord> {
  const headers = credentials(first);
  const init = (body: BodyInit, extra: Record<string, string> = {}): RequestInit => ({
    method: "POST",
    headers: { ...headers, ...extra },
    body,
    ...(signal ? { signal } : {}),
  });
  const rows = entries.map((entry) => entry.id);
  if (provider === "openai") {
    const base = first.url.slice(0, first.url.length - "/chat/completions".length);
    const lines = entries.map((entry) => `${entry.text}\n`);
    const form = new FormData();
    form.set("purpose", "batch");
    form.set("file", new Blob(lines, { type: "application/jsonl" }), "batch.jsonl");
    const file = (await (
      await sendToBatchEndpoint(endpoint, `${base}/files`, init(form), "uploading the batch file")
    ).json()) as { id: string };
    const batch = (await (
      await sendToBatchEndpoint(
        endpoint,
        `${base}/batches`,
        init(
          JSON.stringify({
            input_file_id: file.id,
            endpoint: "/v1/chat/completions",
            completion_window: "24h",
          }),
          {
            "content-type": "application/json",
          },
        ),
        "creating the batch",
      )
    ).json()) as { id: string };
    return { provider, id: batch.id, url: `${base}/batches/${batch.id}`, rows };
  }
  const batch = (await (
    await sendToBatchEndpoint(
      endpoint,
      `${first.url}/batches`,
      init(`{"requests":[${entries.map((entry) => entry.text).join(",")}]}`, {
        "content-type": "application/json",
      }),
      "creating the message batch",
    )
  ).json()) as { id: string };
  return { provider, id: batch.id, url: `${first.url}/batches/${batch.id}`, rows };
}

/** How a batch is waited for: polled every `pollIntervalMs` on `clock`, given up after `maxWaitMs`. */
interface BatchPolling {
  clock: BatchClock;
  pollIntervalMs: number;
  maxWaitMs: number;
}

async function waitAndDownload(
  record: ProviderBatchRecord,
  headers: Record<string, string>,
  endpoint: BatchEndpoint,
  { clock, pollIntervalMs, maxWaitMs }: BatchPolling,
  options: ProviderBatchOptions,
): Promise<Map<string, RowAnswer>> {
  const started = clock.now();
  const get = (url: string, what: string) =>
    sendToBatchEndpoint(
      endpoint,
      url,
      { headers, ...(options.signal ? { signal: options.signal } : {}) },
      what,
    );
  for (;;) {
    const batch = (await (await get(record.url, `polling batch ${record.id}`)).json()) as Record<
      string,
      unknown
    >;
    const status = String(record.provider === "openai" ? batch.status : batch.processing_status);
    options.onPoll?.({ provider: record.provider, id: record.id, status });
    if (record.provider === "anthropic" && status === "ended")
      return readAnthropicResults(
        await (await get(String(batch.results_url), "downloading the batch results")).text(),
      );
    if (record.provider === "openai" && ["completed", "expired", "cancelled", "failed"].includes(status)) {
      if (status === "failed")
        throw new ProviderBatchError(
          `the batch ${record.id} failed validation: ${JSON.stringify(batch.errors ?? null).slice(0, 500)}`,
        );
      const base = record.url.slice(0, record.url.lastIndexOf("/batches/"));
      const answers = new Map<string, RowAnswer>();
      for (const key of ["output_file_id", "error_file_id"]) {
        const fileId = batch[key];
        if (typeof fileId !== "string") continue;
        readOpenAiResults(
          await (await get(`${base}/files/${fileId}/content`, "downloading the batch results")).text(),
          answers,
        );
      }
      return answers;
    }
    if (clock.now() - started >= maxWaitMs)
      throw new ProviderBatchError(
        `the batch ${record.id} is still ${status} after ${maxWaitMs} ms; rerun to keep polling (it is in the checkpoint)`,
      );
    await clock.sleep(pollIntervalMs, options.signal);
  }
}

function readOpenAiResults(text: string, answers: Map<string, RowAnswer>): void {
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as {
      custom_id: string;
      response: { status_code: number; body: unknown } | null;
      error: { code?: string; message?: string } | null;
    };
    if (entry.response)
      answers.set(entry.custom_id, { status: entry.response.status_code, body: entry.response.body });
    else
      answers.set(entry.custom_id, {
        missing: entry.error?.code === "batch_expired" ? "ProviderBatchExpired" : "ProviderBatchRowError",
        message: entry.error?.message ?? "the batch returned an error for this row",
      });
  }
}

function readAnthropicResults(text: string): Map<string, RowAnswer> {
  const answers = new Map<string, RowAnswer>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as {
      custom_id: string;
      result: { type: string; message?: unknown; error?: unknown };
    };
    const { result } = entry;
    if (result.type === "succeeded") answers.set(entry.custom_id, { status: 200, body: result.message });
    else if (result.type === "errored") {
      // The error's type gives back the status the request would have had on its own.
      const type = (result.error as { error?: { type?: unknown } } | undefined)?.error?.type;
      const status = anthropicErrorStatus(type);
      answers.set(entry.custom_id, { status, body: result.error });
    } else
      answers.set(entry.custom_id, {
        missing: result.type === "expired" ? "ProviderBatchExpired" : "ProviderBatchCanceled",
        message: `the batch ${result.type === "expired" ? "expired" : "was canceled"} before this row ran; --retry-failed submits it again`,
      });
  }
  return answers;
}
