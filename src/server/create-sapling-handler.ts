import { type Ir, IrIndex, type LlmFunction } from "../ir/index.js";
import { type CallOptions, Collector, type SaplingRuntime } from "../runtime/index.js";
import { type AccessListener, AccessRecord } from "./access-log.js";
import { apiKeyProblem, checkApiKey } from "./check-api-key.js";
import { answerPreflight, isPreflight, withCorsHeaders } from "./cors.js";
import { decodeArguments } from "./decode-arguments.js";
import { BAML_OPTIONS_KEY, decodeBamlOptions } from "./decode-baml-options.js";
import { renderDocsPage } from "./docs-page.js";
import { describeFailure, errorResponse, HttpError, jsonResponse } from "./error-response.js";
import { createOpenApiDocument } from "./openapi-document.js";
import { readJsonObject, readRequestText } from "./read-request-body.js";
import {
  saplingEnvelope,
  saplingHeaders,
  wantsDeltaStream,
  wantsSaplingEnvelope,
} from "./sapling-response.js";
import { streamResponse } from "./stream-response.js";

export interface SaplingHandlerOptions {
  /** Runs the functions (its `fetch` and `env` reach the model providers). */
  runtime: SaplingRuntime;
  /** The project's IR (default: the runtime's). */
  ir?: Ir;
  /** When set, every route but `/_debug/ping` requires it (header or HTTP Basic password); else 401. */
  apiKey?: string;
  /**
   * Accept `__baml_options__` (a per-request `client_registry` and `env`) without an API key. Off by
   * default: a request's own client can send the server's provider keys to any URL (a registry client
   * with no `api_key` uses the provider's default key from the server's environment). With `apiKey` set,
   * authenticated callers may always send them.
   */
  allowRequestClients?: boolean;
  /** Larger request bodies are refused with 413 (default 100 MiB, BAML's limit). */
  maxBodyBytes?: number;
  /** A deadline for each model call, in milliseconds; when it passes the answer is 504. */
  requestTimeoutMs?: number;
  /** The title of `/openapi.json` and `/docs`. */
  title?: string;
  /** Idle time after which `/stream` sends a keep-alive comment (default 15000 ms). */
  streamHeartbeatMs?: number;
  /**
   * Browser origins allowed to call the server (`https://app.example.com`, or `*`). Empty or absent: CORS
   * is off. Preflights are answered before the API key is checked (browsers send none on a preflight).
   */
  corsOrigins?: readonly string[];
  /**
   * How many `/call`, `/stream` and `/parse` requests may be answered at once (a stream counts until its
   * last event); beyond it a request is refused at once with 503 and `retry-after`, instead of queueing
   * behind the others until callers time out. Default 512. `Infinity` turns the limit off.
   */
  maxConcurrentRequests?: number;
  /** Receives one access-log entry per request when it ends (streams too, abandoned ones included). */
  onAccess?: AccessListener;
  /** The clock of the access log's durations, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** A web-standard request handler: what Bun.serve, Deno.serve, Workers, Hono's `mount` and Next take. */
export type SaplingHandler = (request: Request) => Promise<Response>;

/**
 * Enough for a busy service (the load test sends 500 at once), few enough that an overloaded server says
 * so in milliseconds rather than letting connections wait in the accept queue.
 */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 512;

/** `baml-cli serve`'s limit, measured: a 99 MiB body is served, a 101 MiB one refused with 413. */
const DEFAULT_MAX_BODY_BYTES = 100 * 1024 * 1024;

/**
 * The project's functions over HTTP, as a web-standard `Request → Response` function (no Node APIs, so it
 * runs in any JavaScript runtime; `sapling serve` adapts it to node:http):
 *
 * - `POST /call/{Fn}`: JSON arguments → the parsed value as JSON
 * - `POST /stream/{Fn}`: JSON arguments → server-sent events (partials, then final or error)
 * - `POST /parse/{Fn}`: a model's raw answer (text/plain, or JSON `{ "text" }`) → the value; no model call
 * - `GET /openapi.json`, `GET /docs`, `GET /_debug/ping`, `GET /_debug/status` (BAML's auth report)
 *
 * `/call` and `/stream` bodies may carry BAML's `__baml_options__` (`client_registry`, `env`) when the
 * server requires an API key or `allowRequestClients` is set; otherwise such a request is refused (403).
 *
 * Errors are JSON `{ "error": { status, code, name, message } }` with 400/401/404/405/413/422/502/504.
 */
export function createSaplingHandler(options: SaplingHandlerOptions): SaplingHandler {
  const ir = options.ir ?? options.runtime.ir;
  const index = new IrIndex(ir);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const secured = options.apiKey !== undefined && options.apiKey !== "";
  const cors = { origins: options.corsOrigins ?? [] };
  const now = options.now ?? (() => performance.now());
  const maxConcurrent = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
  let inFlight = 0;
  /** Takes a slot for one request, or refuses it; the returned function gives the slot back once. */
  const admit = (): (() => void) => {
    if (inFlight >= maxConcurrent) {
      throw new HttpError(
        503,
        "OVERLOADED",
        `The server is answering its limit of ${maxConcurrent} requests at once; retry in a second. ` +
          "(The operator raises the limit with --max-concurrent-requests, or maxConcurrentRequests.)",
        { "retry-after": "1" },
      );
    }
    inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight--;
    };
  };
  // The access record of each request in flight, for the routes whose body outlives them (streams).
  const records = new WeakMap<Request, AccessRecord>();
  // Built once: the IR does not change while the handler lives.
  let openApi: string | undefined;

  const route = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (path === "/_debug/ping") return allow(request, "GET", () => new Response("pong"));
    if (path === "/_debug/status") return allow(request, "GET", () => status(request));
    if (secured) checkApiKey(request, options.apiKey as string);
    if (path === "/openapi.json") {
      return allow(request, "GET", () => {
        openApi ??= JSON.stringify(
          secure(createOpenApiDocument(ir, options.title ? { title: options.title } : {}), secured),
        );
        return new Response(openApi, { headers: { "content-type": "application/json; charset=utf-8" } });
      });
    }
    if (path === "/docs") {
      return allow(request, "GET", () => {
        const page = renderDocsPage(ir, { baseUrl: url.origin, secured });
        return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
      });
    }
    const match = /^\/(call|stream|parse)\/([^/]+)$/.exec(path);
    if (!match?.[1] || !match[2]) {
      throw new HttpError(
        404,
        "NOT_FOUND",
        `No route ${request.method} ${path}. Routes: POST /call/{Function}, POST /stream/{Function}, ` +
          "POST /parse/{Function}, GET /openapi.json, GET /docs, GET /_debug/ping, GET /_debug/status.",
      );
    }
    const fn = findFunction(decodeName(match[2]));
    const action = match[1];
    return allow(request, "POST", async () => {
      const release = admit();
      if (action !== "stream") {
        try {
          return await (action === "parse" ? parse(request, fn) : call(request, fn));
        } finally {
          release();
        }
      }
      // A stream gives its slot back when its last event is sent or its reader leaves; one refused
      // before its first event (a bad body or argument) at once.
      return stream(request, fn, release).catch((error: unknown) => {
        release();
        throw error;
      });
    });
  };

  const findFunction = (name: string): LlmFunction => {
    const fn = index.functions.get(name);
    if (fn) return fn;
    const known = [...index.functions.keys()].sort().join(", ") || "none";
    throw new HttpError(404, "UNKNOWN_FUNCTION", `No function "${name}". Functions: ${known}.`);
  };

  /** Call options that end the model call when the caller goes away or the deadline passes. */
  const callControl = (request: Request) => {
    const controller = new AbortController();
    const signals = [request.signal, controller.signal];
    const deadline =
      options.requestTimeoutMs === undefined ? undefined : AbortSignal.timeout(options.requestTimeoutMs);
    if (deadline) signals.push(deadline);
    // A collector of this call alone: its log says what the `x-sapling-*` headers and the envelope report.
    const collector = new Collector("sapling-serve");
    const callOptions: CallOptions = { signal: AbortSignal.any(signals), collector };
    const translate = (error: unknown): unknown =>
      deadline?.aborted
        ? new HttpError(
            504,
            "TIMEOUT",
            `The model call took longer than the server's ${options.requestTimeoutMs} ms deadline.`,
          )
        : error;
    const log = () => {
      const last = collector.last;
      records.get(request)?.attach(last);
      return last;
    };
    return { callOptions, cancel: () => controller.abort(), translate, log };
  };

  /**
   * BAML's `/_debug/status` (answered without authentication, as in BAML): whether an API key is
   * enforced, and whether this request's passes (403 when it does not).
   */
  const status = (request: Request): Response => {
    if (!secured) return jsonResponse(200, { authz: { enforcement: "none" } });
    const problem = apiKeyProblem(request, options.apiKey as string);
    return problem === undefined
      ? jsonResponse(200, { authz: { enforcement: "active", outcome: "pass" } })
      : jsonResponse(403, { authz: { enforcement: "active", outcome: "fail", reason: problem } });
  };

  /** The arguments and per-request options of a `/call` or `/stream` body. */
  const readCall = async (request: Request, fn: LlmFunction) => {
    const { [BAML_OPTIONS_KEY]: bamlOptions, ...body } = await readJsonObject(request, maxBodyBytes);
    let requestOptions: CallOptions = {};
    if (bamlOptions !== undefined) {
      if (!secured && options.allowRequestClients !== true) {
        throw new HttpError(
          403,
          "REQUEST_OPTIONS_REFUSED",
          `This server takes no ${BAML_OPTIONS_KEY}: a per-request client registry or env could send the ` +
            "server's provider API keys to any URL. Start it with an API key (SAPLING_API_KEY or " +
            "BAML_PASSWORD) and authenticate, or with --allow-request-clients (allowRequestClients) if every " +
            "caller is trusted.",
        );
      }
      requestOptions = decodeBamlOptions(bamlOptions);
    }
    return { args: decodeArguments(fn, body, index), requestOptions };
  };

  const call = async (request: Request, fn: LlmFunction): Promise<Response> => {
    const { args, requestOptions } = await readCall(request, fn);
    const { callOptions, translate, log } = callControl(request);
    try {
      const value = await options.runtime.call(fn.name, args, { ...requestOptions, ...callOptions });
      const facts = log();
      const body = wantsSaplingEnvelope(request) ? saplingEnvelope(value, facts) : value;
      return jsonResponse(200, body, saplingHeaders(facts));
    } catch (error) {
      log();
      throw translate(error);
    }
  };

  const stream = async (request: Request, fn: LlmFunction, release: () => void): Promise<Response> => {
    const { args, requestOptions } = await readCall(request, fn);
    const { callOptions, cancel, translate, log } = callControl(request);
    const running = options.runtime.stream(fn.name, args, { ...requestOptions, ...callOptions });
    // Starting the stream checks the arguments synchronously: a bad argument is still a 400, not an event.
    running.getFinalResponse().catch(() => {});
    const record = records.get(request);
    record?.defer();
    const envelope = wantsSaplingEnvelope(request);
    return streamResponse(running, {
      onCancel: cancel,
      translate,
      format: wantsDeltaStream(request) ? "delta" : "partial",
      ...(envelope ? { envelope: (value: unknown) => saplingEnvelope(value, log()) } : {}),
      finalFields: () => saplingHeaders(log()),
      onEnd: ({ failure, aborted }) => {
        release();
        log();
        if (failure) record?.fail(failure);
        record?.end(200, aborted);
      },
      ...(options.streamHeartbeatMs !== undefined ? { heartbeatMs: options.streamHeartbeatMs } : {}),
    });
  };

  const parse = async (request: Request, fn: LlmFunction): Promise<Response> => {
    const contentType = request.headers.get("content-type") ?? "";
    let text: string;
    let partial = false;
    if (contentType.startsWith("text/plain")) {
      text = await readRequestText(request, maxBodyBytes);
    } else {
      const body = await readJsonObject(request, maxBodyBytes);
      if (typeof body.text !== "string") {
        throw new HttpError(
          400,
          "BAD_REQUEST",
          'Send the raw answer as text/plain, or as JSON {"text": "…", "partial": false}.',
        );
      }
      text = body.text;
      partial = body.partial === true;
    }
    const value = partial ? options.runtime.parseStream(fn.name, text) : options.runtime.parse(fn.name, text);
    return jsonResponse(200, value);
  };

  const answer = async (request: Request, record: AccessRecord | undefined): Promise<Response> => {
    // Before the API key: a browser's preflight carries none.
    if (isPreflight(request)) return answerPreflight(request, cors);
    try {
      return await route(request);
    } catch (error) {
      record?.fail(describeFailure(error));
      return errorResponse(error);
    }
  };

  return async (request) => {
    const record = options.onAccess ? new AccessRecord(request, options.onAccess, now) : undefined;
    if (record) records.set(request, record);
    const response = withCorsHeaders(request, await answer(request, record), cors);
    record?.returned(response.status);
    return response;
  };
}

function allow(request: Request, method: string, answer: () => Response | Promise<Response>) {
  if (request.method === method || (method === "GET" && request.method === "HEAD")) return answer();
  const path = new URL(request.url).pathname;
  throw new HttpError(405, "METHOD_NOT_ALLOWED", `Use ${method} for ${path}.`, { allow: method });
}

/** The function name from the path; a malformed escape names no function. */
function decodeName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function secure(document: Record<string, unknown>, secured: boolean): Record<string, unknown> {
  return secured ? { ...document, security: [{ apiKey: [] }, { basic: [] }] } : document;
}
