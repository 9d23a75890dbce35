/**
 * One `LanguageModel` for every provider: roles and media are resolved here, the adapter shapes the wire
 * format, and this file sends it over the injected `fetch` under the call's deadline, turning every failure
 * into a typed `LlmError` with secrets redacted.
 */

import {
  LlmAbortError,
  LlmHttpError,
  LlmMalformedResponseError,
  LlmOptionsError,
  ProviderStreamError,
  ResponseShapeError,
  toolCallDeltas,
} from "../provider-helpers/index.js";
import type { ChatMessage, MediaKind } from "../util/index.js";
import { applyRolePolicy } from "./apply-role-policy.js";
import type { ClientOptions } from "./client-options.js";
import { encodeRequestBody } from "./encode-request-body.js";
import { isFinishReasonAllowed } from "./finish-reason-policy.js";
import { hasMediaUrls } from "./has-media-urls.js";
import type {
  BuildRequestOptions,
  GenerateResult,
  LanguageModel,
  ModelCallOptions,
  ModelStreamEvent,
  OutputMode,
  ProviderRequest,
  ResponseInfo,
} from "./language-model.js";
import { loadOnFirstUse } from "./load-on-first-use.js";
import type { MediaUrlPolicy } from "./media-url-policy.js";
import { parseRetryAfter } from "./parse-retry-after.js";
import type { ProviderAdapter } from "./providers/provider-adapter.js";
import { readSseBatches } from "./read-sse-batches.js";
import { redactSecrets, redactUrl } from "./redact.js";
import { RequestDeadline } from "./request-deadline.js";
import type { OutputRequest, ToolCall } from "./tool-calls.js";

export class HttpLanguageModel implements LanguageModel {
  readonly modelId: string | undefined;
  readonly supportsStreaming: boolean;
  readonly finishReasonPolicy;
  readonly outputMode: OutputMode | undefined;
  readonly defaultRole: string;

  constructor(
    readonly provider: string,
    private readonly options: ClientOptions,
    private readonly adapter: ProviderAdapter,
    private readonly fetchFunction: typeof fetch,
    private readonly mediaUrls?: MediaUrlPolicy,
  ) {
    this.modelId = adapter.modelId;
    this.supportsStreaming = options.supportsStreaming;
    this.finishReasonPolicy = options.finishReasonPolicy;
    this.outputMode = options.outputMode;
    this.defaultRole = options.rolePolicy.defaultRole;
  }

  isFinishReasonAllowed(rawFinishReason: string | undefined): boolean {
    return isFinishReasonAllowed(this.finishReasonPolicy, rawFinishReason);
  }

  buildRequest(messages: readonly ChatMessage[], options: BuildRequestOptions): Promise<ProviderRequest> {
    return this.prepare(messages, options.stream, undefined, options.output);
  }

  async generate(messages: readonly ChatMessage[], options: ModelCallOptions = {}): Promise<GenerateResult> {
    const request = await this.prepare(messages, false, options.signal, options.output);
    const deadline = new RequestDeadline(this.options.http, this.context(request), options.signal, false);
    try {
      const response = await this.send(request, deadline);
      const info = responseInfo(response);
      const text = await deadline.race(response.text());
      const rawResponse = this.parseJson(text, request);
      const answer = this.runAdapterStep(() => this.adapter.parseResponse(rawResponse), text, request);
      const reasoning = this.adapter.reasoning?.fromResponse(rawResponse) ?? "";
      return {
        ...answer,
        ...(reasoning === "" ? {} : { reasoning }),
        rawResponse,
        response: info,
        toolCalls: this.readToolCalls(rawResponse),
      };
    } catch (error) {
      throw deadline.translate(error);
    } finally {
      deadline.dispose();
    }
  }

  stream(messages: readonly ChatMessage[], options: ModelCallOptions = {}): AsyncIterable<ModelStreamEvent> {
    return this.supportsStreaming
      ? this.streamEvents(messages, options)
      : this.generateAsStream(messages, options);
  }

  /** `supports_streaming false`: one non-streaming request, replayed as a one-delta stream. */
  private async *generateAsStream(
    messages: readonly ChatMessage[],
    options: ModelCallOptions,
  ): AsyncGenerator<ModelStreamEvent> {
    const result = await this.generate(messages, options);
    yield { type: "response-start", response: result.response };
    if (result.reasoning) yield { type: "reasoning-delta", text: result.reasoning };
    if (result.text !== "") yield { type: "text-delta", text: result.text };
    yield* toolCallEvents(result.toolCalls);
    yield finishEvent(result);
  }

  private async *streamEvents(
    messages: readonly ChatMessage[],
    options: ModelCallOptions,
  ): AsyncGenerator<ModelStreamEvent> {
    const request = await this.prepare(messages, true, options.signal, options.output);
    const deadline = new RequestDeadline(this.options.http, this.context(request), options.signal, true);
    let response: Response | undefined;
    let finished = false;
    try {
      response = await this.send(request, deadline);
      const info = responseInfo(response);
      yield { type: "response-start", response: info };
      const contentType = response.headers.get("content-type") ?? "";
      if (contentType.includes("application/json")) {
        // Some OpenAI-compatible servers ignore `stream: true` and answer with one JSON body.
        const text = await deadline.race(response.text());
        const rawResponse = this.parseJson(text, request);
        const answer = this.runAdapterStep(() => this.adapter.parseResponse(rawResponse), text, request);
        deadline.firstToken();
        const reasoning = this.adapter.reasoning?.fromResponse(rawResponse) ?? "";
        if (reasoning !== "") yield { type: "reasoning-delta", text: reasoning };
        if (answer.text !== "") yield { type: "text-delta", text: answer.text };
        yield* toolCallEvents(this.readToolCalls(rawResponse));
        finished = true;
        yield finishEvent(answer);
        return;
      }
      if (response.body === null) {
        throw new LlmMalformedResponseError("the stream has no body", "", this.context(request));
      }
      const parser = this.adapter.createStreamReader();
      const toolReader = this.adapter.toolCalls?.createStreamReader();
      const decoder = this.adapter.createStreamDecoder?.();
      for await (const events of readSseBatches(response.body, deadline, decoder)) {
        for (const event of events) {
          yield event.event === undefined
            ? { type: "raw", data: event.data }
            : { type: "raw", data: event.data, event: event.event };
          const text = this.runAdapterStep(() => parser.push(event), event.data, request);
          const reasoning = this.adapter.reasoning?.fromEvent(event) ?? "";
          if (reasoning !== "") {
            deadline.firstToken();
            yield { type: "reasoning-delta", text: reasoning };
          }
          if (text !== "") {
            deadline.firstToken();
            yield { type: "text-delta", text };
          }
          for (const delta of toolReader?.push(event) ?? []) {
            deadline.firstToken();
            yield { type: "tool-call-delta", ...delta };
          }
        }
      }
      finished = true;
      yield finishEvent(parser.result());
    } catch (error) {
      // A stream decoder fails like a parser (undecodable bytes, an in-stream provider error).
      throw deadline.translate(this.typedError(error, "", request));
    } finally {
      // A consumer that stops early (break, abort, error) must not leave the connection open: aborting the
      // fetch closes it; the body is cancelled too, for fetch implementations that ignore the signal.
      if (!finished) {
        deadline.stop();
        if (response?.body?.locked === false) response.body.cancel().catch(() => {});
      }
      deadline.dispose();
    }
  }

  private async prepare(
    messages: readonly ChatMessage[],
    stream: boolean,
    signal: AbortSignal | undefined,
    output: OutputRequest | undefined,
  ): Promise<ProviderRequest> {
    if (signal?.aborted) throw new LlmAbortError(signal.reason, { provider: this.provider });
    const roled = applyRolePolicy(messages, this.options.rolePolicy);
    // Most calls send no media by URL: the URL policy and the downloader load only for those that do.
    const resolved = !hasMediaUrls(roled)
      ? roled
      : await (
          await loadOnFirstUse(
            "the media URL downloader",
            this.provider,
            () => import("./resolve-media-urls.js"),
          )
        ).resolveMediaUrls(roled, {
          provider: this.provider,
          modeFor: (kind: MediaKind) =>
            this.options.mediaUrlHandler[kind] ?? this.adapter.defaultMediaUrlMode(kind),
          fetch: this.fetchFunction,
          ...(signal === undefined ? {} : { signal }),
          ...(this.mediaUrls === undefined ? {} : { policy: this.mediaUrls }),
        });
    const built = this.adapter.buildRequest(resolved, stream);
    const request = output === undefined ? built : { ...built, body: this.writeOutput(built.body, output) };
    if (this.adapter.authorize === undefined) return request;
    return this.adapter.authorize(request, {
      fetch: this.fetchFunction,
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** The body with the request's tools or enforced schema, in the provider's spelling. */
  private writeOutput(body: Record<string, unknown>, output: OutputRequest): Record<string, unknown> {
    const wire = this.adapter.toolCalls;
    if (wire === undefined) {
      throw new LlmOptionsError(
        "output_mode",
        `${this.provider} has no native tool calls or response schemas; use output_mode "prompt".`,
        { provider: this.provider },
      );
    }
    return wire.writeRequest(body, output);
  }

  private readToolCalls(rawResponse: unknown): ToolCall[] {
    return this.adapter.toolCalls?.readToolCalls(rawResponse) ?? [];
  }

  private async send(request: ProviderRequest, deadline: RequestDeadline): Promise<Response> {
    const response = await deadline.race(
      this.fetchFunction(request.url, {
        method: request.method,
        headers: request.headers,
        body: encodeRequestBody(request),
        signal: deadline.signal,
      }),
    );
    deadline.headersReceived();
    if (response.ok) return response;
    const body = await deadline.race(response.text()).catch(() => "");
    throw new LlmHttpError(
      response.status,
      this.redact(body),
      parseRetryAfter(response.headers, Date.now()),
      this.context(request),
    );
  }

  private parseJson(text: string, request: ProviderRequest): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new LlmMalformedResponseError("the body is not JSON", this.redact(text), this.context(request));
    }
  }

  /** Runs an adapter step, turning its shape and in-stream errors into typed errors. */
  private runAdapterStep<T>(step: () => T, raw: string, request: ProviderRequest): T {
    try {
      return step();
    } catch (error) {
      throw this.typedError(error, raw, request);
    }
  }

  /** An adapter's shape or in-stream error as the matching `LlmError`; anything else unchanged. */
  private typedError(error: unknown, raw: string, request: ProviderRequest): unknown {
    if (error instanceof ResponseShapeError) {
      return new LlmMalformedResponseError(error.message, this.redact(raw), this.context(request));
    }
    if (error instanceof ProviderStreamError) {
      return new LlmHttpError(error.status, this.redact(error.body), undefined, this.context(request));
    }
    return error;
  }

  private redact(text: string): string {
    return redactSecrets(text, [this.options.apiKey]);
  }

  private context(request: ProviderRequest) {
    return { provider: this.provider, url: redactUrl(request.url) };
  }
}

function responseInfo(response: Response): ResponseInfo {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers };
}

function* toolCallEvents(calls: readonly ToolCall[]): Generator<ModelStreamEvent> {
  for (const delta of toolCallDeltas(calls)) yield { type: "tool-call-delta", ...delta };
}

function finishEvent(
  answer: Omit<GenerateResult, "text" | "rawResponse" | "response" | "toolCalls">,
): ModelStreamEvent {
  return {
    type: "finish",
    finishReason: answer.finishReason,
    rawFinishReason: answer.rawFinishReason,
    usage: answer.usage,
    model: answer.model,
  };
}
