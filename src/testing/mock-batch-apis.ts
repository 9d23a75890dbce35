/**
 * The providers' batch APIs on the mock LLM server: OpenAI's (upload a JSON-lines file, create a batch,
 * poll it, download its output and error files) and Anthropic's Message Batches (requests inline, poll,
 * download the results). Each request of a batch is answered like a request of its own (the scripted
 * queues, `respond`, the default answer), so a test scripts batch answers as it scripts calls.
 */
import type { MockAnswer, MockRoute } from "./mock-answer.js";
import { mockWireFormats } from "./mock-wire-formats.js";
import { readPromptText } from "./read-prompt-text.js";
import type { RecordedRequest } from "./start-mock-llm-server.js";
import { wholeAnswer } from "./write-mock-answer.js";

/** How the mock's batches behave. */
export interface MockBatchOptions {
  /** Polls that still find a batch in progress before it ends (default 1). */
  pollsUntilDone?: number;
  /**
   * The batch expires after answering this many of its requests: the rest come back expired (OpenAI:
   * in the error file with code `batch_expired`; Anthropic: results of type `expired`).
   */
  expireAfter?: number;
}

interface MockBatch {
  provider: "openai" | "anthropic";
  id: string;
  requests: { customId: string; body: Record<string, unknown> }[];
  polls: number;
  ended: boolean;
  expired: boolean;
  createdAt: number;
  outputFileId?: string;
  errorFileId?: string;
  counts: { total: number; completed: number; failed: number; expired: number };
  anthropicResults?: string;
}

export interface MockBatchApis {
  /** Answers the request when it is one of the batch routes; `false` when it is not. */
  handle(
    method: string,
    path: string,
    raw: string,
    headers: Record<string, string>,
  ): Promise<MockHttpAnswer | undefined>;
  /** Every batch created, in order. */
  readonly batches: readonly { provider: string; id: string; size: number }[];
}

export interface MockHttpAnswer {
  status: number;
  body: string;
  contentType: string;
}

export function createMockBatchApis(
  options: MockBatchOptions,
  answerFor: (request: RecordedRequest) => MockAnswer | undefined,
  nextAnswerId: () => number,
): MockBatchApis {
  const files = new Map<string, string>();
  const batches = new Map<string, MockBatch>();
  const created: { provider: string; id: string; size: number }[] = [];
  let counter = 0;
  const newId = (prefix: string) => `${prefix}${(++counter).toString(36).padStart(6, "0")}`;
  const json = (status: number, body: unknown): MockHttpAnswer => ({
    status,
    body: JSON.stringify(body),
    contentType: "application/json",
  });
  const notFound = (what: string) =>
    json(404, { error: { type: "not_found_error", message: `mock LLM server: no ${what}` } });

  /** Answers one request of a batch as the route would answer it on its own. */
  const answerOne = (route: MockRoute, path: string, body: Record<string, unknown>) => {
    const wire = mockWireFormats[route];
    const recorded: RecordedRequest = {
      route,
      method: "POST",
      path,
      query: {},
      headers: {},
      body,
      promptText: readPromptText(route, body),
      stream: false,
      model: wire.requestedModel(path, body),
      chunksSent: 0,
    };
    const scripted = answerFor(recorded);
    if (scripted === undefined)
      return {
        status: 500,
        body: wire.errorBody(500, "mock LLM server: no scripted answer for a batch request"),
      };
    return wholeAnswer(wire, recorded, JSON.stringify(body), scripted, nextAnswerId());
  };

  /** Runs a batch's requests once its polls are used up: answers them, or expires the rest. */
  const finish = (batch: MockBatch) => {
    if (batch.ended) return;
    batch.ended = true;
    const output: string[] = [];
    const errors: string[] = [];
    const anthropic: string[] = [];
    batch.requests.forEach((request, index) => {
      const expired = options.expireAfter !== undefined && index >= options.expireAfter;
      if (expired) {
        batch.expired = true;
        batch.counts.expired += 1;
        if (batch.provider === "openai")
          errors.push(
            JSON.stringify({
              id: `batch_req_${index}`,
              custom_id: request.customId,
              response: null,
              error: {
                code: "batch_expired",
                message: "This request could not be executed before the completion window expired.",
              },
            }),
          );
        else anthropic.push(JSON.stringify({ custom_id: request.customId, result: { type: "expired" } }));
        return;
      }
      const route: MockRoute = batch.provider === "openai" ? "openai" : "anthropic";
      const answer = answerOne(
        route,
        route === "openai" ? "/v1/chat/completions" : "/v1/messages",
        request.body,
      );
      const ok = answer.status < 400;
      if (ok) batch.counts.completed += 1;
      else batch.counts.failed += 1;
      if (batch.provider === "openai") {
        const line = JSON.stringify({
          id: `batch_req_${index}`,
          custom_id: request.customId,
          response: { status_code: answer.status, request_id: `req_${index}`, body: answer.body },
          error: null,
        });
        (ok ? output : errors).push(line);
      } else {
        anthropic.push(
          JSON.stringify({
            custom_id: request.customId,
            result: ok
              ? { type: "succeeded", message: answer.body }
              : { type: "errored", error: answer.body },
          }),
        );
      }
    });
    if (batch.provider === "openai") {
      if (output.length > 0) {
        batch.outputFileId = newId("file-out");
        files.set(batch.outputFileId, `${output.join("\n")}\n`);
      }
      if (errors.length > 0) {
        batch.errorFileId = newId("file-err");
        files.set(batch.errorFileId, `${errors.join("\n")}\n`);
      }
    } else batch.anthropicResults = `${anthropic.join("\n")}\n`;
  };

  const poll = (batch: MockBatch) => {
    batch.polls += 1;
    if (batch.polls > (options.pollsUntilDone ?? 1)) finish(batch);
  };

  const openAiBatch = (batch: MockBatch) => ({
    id: batch.id,
    object: "batch",
    endpoint: "/v1/chat/completions",
    completion_window: "24h",
    status: batch.ended
      ? batch.expired
        ? "expired"
        : "completed"
      : batch.polls === 0
        ? "validating"
        : "in_progress",
    output_file_id: batch.outputFileId ?? null,
    error_file_id: batch.errorFileId ?? null,
    created_at: batch.createdAt,
    request_counts: {
      total: batch.counts.total,
      completed: batch.counts.completed,
      failed: batch.counts.failed + batch.counts.expired,
    },
  });

  const anthropicBatch = (batch: MockBatch, base: string) => ({
    id: batch.id,
    type: "message_batch",
    processing_status: batch.ended ? "ended" : "in_progress",
    request_counts: {
      processing: batch.ended ? 0 : batch.counts.total,
      succeeded: batch.counts.completed,
      errored: batch.counts.failed,
      canceled: 0,
      expired: batch.counts.expired,
    },
    results_url: batch.ended ? `${base}/v1/messages/batches/${batch.id}/results` : null,
    created_at: new Date(batch.createdAt * 1000).toISOString(),
  });

  const parseJson = (raw: string): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(raw);
      return value !== null && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    batches: created,
    async handle(method, path, raw, headers) {
      const origin = `http://${headers.host ?? "127.0.0.1"}`;
      // OpenAI: files.
      if (method === "POST" && path === "/v1/files") {
        const form = await new Request(`${origin}${path}`, {
          method,
          headers: { "content-type": headers["content-type"] ?? "" },
          body: raw,
        })
          .formData()
          .catch(() => undefined);
        const file = form?.get("file");
        if (form?.get("purpose") !== "batch" || !(file instanceof Blob))
          return json(400, {
            error: { message: "mock LLM server: upload a multipart form with purpose=batch and a file" },
          });
        const id = newId("file-");
        files.set(id, await file.text());
        return json(200, { id, object: "file", purpose: "batch", bytes: file.size, filename: "batch.jsonl" });
      }
      const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
      if (method === "GET" && content) {
        const text = files.get(content[1] as string);
        return text === undefined
          ? notFound(`file ${content[1]}`)
          : { status: 200, body: text, contentType: "application/jsonl" };
      }
      // OpenAI: batches.
      if (method === "POST" && path === "/v1/batches") {
        const body = parseJson(raw);
        const input = typeof body?.input_file_id === "string" ? files.get(body.input_file_id) : undefined;
        if (input === undefined)
          return json(400, { error: { message: "mock LLM server: input_file_id names no uploaded file" } });
        if (body?.endpoint !== "/v1/chat/completions")
          return json(400, {
            error: { message: "mock LLM server: only the /v1/chat/completions endpoint is batched" },
          });
        const requests = input
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => JSON.parse(line) as { custom_id: string; body: Record<string, unknown> })
          .map((line) => ({ customId: line.custom_id, body: line.body }));
        const batch = newBatch("openai", newId("batch_"), requests);
        return json(200, openAiBatch(batch));
      }
      const openAiPoll = /^\/v1\/batches\/([^/]+)$/.exec(path);
      if (method === "GET" && openAiPoll) {
        const batch = batches.get(openAiPoll[1] as string);
        if (!batch) return notFound(`batch ${openAiPoll[1]}`);
        poll(batch);
        return json(200, openAiBatch(batch));
      }
      // Anthropic: message batches.
      if (method === "POST" && path === "/v1/messages/batches") {
        const body = parseJson(raw);
        if (!Array.isArray(body?.requests))
          return json(400, {
            type: "error",
            error: { type: "invalid_request_error", message: "requests: Field required" },
          });
        const requests = (body.requests as { custom_id: string; params: Record<string, unknown> }[]).map(
          (request) => ({
            customId: request.custom_id,
            body: request.params,
          }),
        );
        const batch = newBatch("anthropic", newId("msgbatch_"), requests);
        return json(200, anthropicBatch(batch, origin));
      }
      const anthropicPoll = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(path);
      if (method === "GET" && anthropicPoll) {
        const batch = batches.get(anthropicPoll[1] as string);
        if (!batch) return notFound(`message batch ${anthropicPoll[1]}`);
        if (anthropicPoll[2]) {
          if (!batch.ended)
            return json(400, {
              type: "error",
              error: { type: "invalid_request_error", message: "the batch is still processing" },
            });
          return { status: 200, body: batch.anthropicResults ?? "", contentType: "application/binary" };
        }
        poll(batch);
        return json(200, anthropicBatch(batch, origin));
      }
      return undefined;
    },
  };

  function newBatch(
    provider: "openai" | "anthropic",
    id: string,
    requests: MockBatch["requests"],
  ): MockBatch {
    const batch: MockBatch = {
      provider,
      id,
      requests,
      polls: 0,
      ended: false,
      expired: false,
      createdAt: 1_700_000_000 + counter,
      counts: { total: requests.length, completed: 0, failed: 0, expired: 0 },
    };
    batches.set(id, batch);
    created.push({ provider, id, size: requests.length });
    return batch;
  }
}
