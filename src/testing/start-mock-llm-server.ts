/**
 * A mock LLM server on 127.0.0.1 for tests, demos and benchmarks: it speaks the OpenAI (chat completions
 * and Responses), Anthropic and Gemini wire formats (whole answers and SSE), replays scripted answers with
 * chosen chunking and delays, and injects faults (HTTP errors with `retry-after`, connection resets, slow
 * first tokens, malformed events, length cuts, hangs). Google's token endpoint (`POST /token`) guards the
 * Vertex AI paths, which answer in the Gemini format (Claude's `:rawPredict`: Anthropic's). Bedrock's
 * Converse paths answer in JSON and binary event streams, and check each request's SigV4 signature. It
 * records the latest requests (`maxRecordedRequests`), and `close()` destroys every socket it ever accepted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { MockAnswer, MockRoute } from "./mock-answer.js";
import { createMockBatchApis, type MockBatchOptions } from "./mock-batch-apis.js";
import { checkBedrockAuthorization, mockAwsCredentials } from "./mock-bedrock-auth.js";
import {
  isVertexPath,
  MockGoogleTokenEndpoint,
  type MockTokenEndpointOptions,
  vertexUnauthenticatedBody,
} from "./mock-google-token-endpoint.js";
import { mockWireFormats, routeForPath } from "./mock-wire-formats.js";
import { readPromptText } from "./read-prompt-text.js";
import { sendJson, writeMockAnswer } from "./write-mock-answer.js";

/** A request the server received, with its parsed body. */
export interface RecordedRequest {
  route: MockRoute;
  method: string;
  /** The path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /**
   * The prompt's text (system and messages, joined by newlines), read from string or typed-part content
   * alike, so a `respond` callback works whatever content form the client sends.
   */
  promptText: string;
  stream: boolean;
  model: string | undefined;
  /**
   * Text chunks of the answer written to this request so far (a streamed answer's events; a whole answer
   * counts one). Tests of how early a client stops a stream compare it with the chunks scripted.
   */
  chunksSent: number;
}

export interface MockLlmServerOptions {
  /** Answers a request when no scripted answer is queued for it. */
  respond?: (request: RecordedRequest) => MockAnswer | undefined;
  /** Answers any request left after the queues and `respond` (default: an HTTP 500 saying nothing was scripted). */
  defaultAnswer?: MockAnswer;
  /** The Google token endpoint at `POST /token` (e.g. the public keys whose signatures it accepts). */
  tokenEndpoint?: MockTokenEndpointOptions;
  /**
   * The AWS keys whose SigV4 signatures the Bedrock paths accept, by access key id (default: the AWS
   * documentation's example pair, `mockAwsCredentials`). Other keys are refused like Bedrock does, HTTP 403.
   */
  awsCredentials?: Readonly<Record<string, string>>;
  /** The port on 127.0.0.1 (default 0: a free one, which `url` and `port` report). */
  port?: number;
  /** Called with each request as it arrives, before it is answered (`sapling mock` logs them). */
  onRequest?: (request: RecordedRequest) => void;
  /** How the OpenAI Batch and Anthropic Message Batches APIs behave (polls until done, expiry). */
  batches?: MockBatchOptions;
  /**
   * How many requests `requests` keeps, the latest (default 10,000): a mock left running for days must
   * not hold every request body it ever received. `Infinity` keeps all; `requestCount()` counts all.
   */
  maxRecordedRequests?: number;
}

/** Enough for any test's requests since its last reset, bounded for a mock that runs for days. */
export const DEFAULT_MAX_RECORDED_REQUESTS = 10_000;

export interface MockLlmServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /**
   * Base URLs to put in client options: OpenAI-style `…/v1` (chat completions and Responses), Anthropic
   * root, Gemini `…/v1beta`, Bedrock root (an aws-bedrock client's `endpoint_url`), OpenAI-style `…/v1`
   * for speech to text.
   */
  readonly baseUrls: Readonly<Record<MockRoute, string>>;
  /**
   * The requests received, in order: the latest `maxRecordedRequests` (older ones are dropped). Tests may
   * empty it (`requests.length = 0`).
   */
  readonly requests: RecordedRequest[];
  /** How many requests the server has received since it started, dropped ones included. */
  requestCount(): number;
  /**
   * Google's OAuth token endpoint (`{url}/token`, a service-account key's `token_uri` in tests). Vertex AI
   * paths (`/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:…`, answered in the
   * Gemini format) require a bearer token it issued, or an API key.
   */
  readonly tokenEndpoint: MockGoogleTokenEndpoint;
  /** The `base_url` of a vertex-ai client for this project and location (publisher `anthropic` for Claude). */
  vertexModelsUrl(projectId: string, location: string, publisher?: "google" | "anthropic"): string;
  /** Queues answers for the next requests of any route. */
  script(...answers: MockAnswer[]): void;
  /** Queues answers for the next requests of one route (served before the shared queue). */
  scriptFor(route: MockRoute, ...answers: MockAnswer[]): void;
  /** Scripted answers not served yet. */
  pendingAnswers(): number;
  /** Sockets currently open (client connections, kept alive or not). */
  connectionCount(): number;
  /** The provider batches created (OpenAI Batch, Anthropic Message Batches), in order. */
  readonly batches: readonly { provider: string; id: string; size: number }[];
  /** Requests still being answered: neither finished nor closed by the client. */
  activeRequests(): number;
  /** Stops listening, cancels pending delays and destroys every open socket. */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1, on `options.port` or a free port. */
export async function startMockLlmServer(options: MockLlmServerOptions = {}): Promise<MockLlmServer> {
  const sharedQueue: MockAnswer[] = [];
  const routeQueues: Record<MockRoute, MockAnswer[]> = {
    openai: [],
    responses: [],
    anthropic: [],
    gemini: [],
    bedrock: [],
    transcriptions: [],
  };
  const awsSecrets = options.awsCredentials ?? {
    [mockAwsCredentials.accessKeyId]: mockAwsCredentials.secretAccessKey,
  };
  const requests: RecordedRequest[] = [];
  const maxRecorded = options.maxRecordedRequests ?? DEFAULT_MAX_RECORDED_REQUESTS;
  let received = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const active = new Set<ServerResponse>();
  let answerCount = 0;
  let closed = false;

  /** Resolves `true` after `milliseconds`, or `false` as soon as the response is closed or the server stops. */
  const sleep = (milliseconds: number, response: ServerResponse): Promise<boolean> => {
    if (closed || response.destroyed) return Promise.resolve(false);
    if (milliseconds <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onClose = () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.off("close", onClose);
        resolve(!response.destroyed);
      }, milliseconds);
      timers.add(timer);
      response.once("close", onClose);
    });
  };

  const takeAnswer = (request: RecordedRequest): MockAnswer | undefined =>
    routeQueues[request.route].shift() ??
    sharedQueue.shift() ??
    options.respond?.(request) ??
    options.defaultAnswer;

  const batchApis = createMockBatchApis(options.batches ?? {}, takeAnswer, () => ++answerCount);

  // Set once the port is known (it is the token URI's); requests are only handled after that.
  let tokenEndpoint: MockGoogleTokenEndpoint;
  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const bytes = await readBody(incoming);
    const raw = bytes.toString("utf8");
    const target = new URL(incoming.url ?? "/", "http://127.0.0.1");
    if (target.pathname === "/token" && incoming.method === "POST") {
      const answer = await tokenEndpoint.handle(raw, incoming.headers["content-type"]);
      sendJson(response, answer.status, answer.body);
      return;
    }
    const batchAnswer = await batchApis.handle(
      incoming.method ?? "GET",
      target.pathname,
      raw,
      Object.fromEntries(
        Object.entries(incoming.headers).map(([name, value]) => [name, String(value ?? "")]),
      ),
    );
    if (batchAnswer) {
      response.writeHead(batchAnswer.status, {
        "content-type": batchAnswer.contentType,
        "content-length": Buffer.byteLength(batchAnswer.body),
      });
      response.end(batchAnswer.body);
      return;
    }
    const route = routeForPath(target.pathname);
    if (route === undefined || incoming.method !== "POST") {
      sendJson(response, 404, {
        error: { message: `mock LLM server: no route for ${incoming.method} ${target.pathname}` },
      });
      return;
    }
    const wire = mockWireFormats[route];
    let body: Record<string, unknown>;
    try {
      const contentType = incoming.headers["content-type"] ?? "";
      const parsed: unknown = contentType.startsWith("multipart/form-data")
        ? await readFormFields(bytes, contentType)
        : JSON.parse(raw);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error("not an object");
      body = parsed as Record<string, unknown>;
    } catch {
      sendJson(
        response,
        400,
        wire.errorBody(400, "mock LLM server: the request body is not a JSON object or a multipart form"),
      );
      return;
    }
    const recorded: RecordedRequest = {
      route,
      method: incoming.method,
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      headers: Object.fromEntries(
        Object.entries(incoming.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(", ") : (value ?? ""),
        ]),
      ),
      body,
      promptText: readPromptText(route, body),
      stream: wire.isStream(target.pathname, target.searchParams, body),
      model: wire.requestedModel(target.pathname, body),
      chunksSent: 0,
    };
    received++;
    requests.push(recorded);
    if (requests.length > maxRecorded) requests.splice(0, requests.length - maxRecorded);
    options.onRequest?.(recorded);
    if (isVertexPath(recorded.path) && !tokenEndpoint.authorizes(recorded.headers, recorded.query)) {
      sendJson(response, 401, vertexUnauthenticatedBody);
      return;
    }
    if (route === "bedrock") {
      const refusal = await checkBedrockAuthorization(
        { method: incoming.method, target: incoming.url ?? "/", headers: recorded.headers, body: raw },
        awsSecrets,
      );
      if (refusal !== undefined) {
        sendJson(response, 403, refusal, { "x-amzn-errortype": "AccessDeniedException" });
        return;
      }
    }
    const scripted = takeAnswer(recorded);
    if (scripted === undefined) {
      sendJson(
        response,
        500,
        wire.errorBody(500, `mock LLM server: no scripted answer for ${route} request #${received}`),
      );
      return;
    }
    answerCount++;
    await writeMockAnswer({
      incoming,
      response,
      wire,
      recorded,
      rawBody: raw,
      scripted,
      answerId: answerCount,
      sleep,
    });
  };

  const server = createServer((incoming, response) => {
    active.add(response);
    response.on("close", () => active.delete(response));
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: { message: `mock LLM server failed: ${String(error)}` } });
      else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("mock LLM server: no TCP address");
  const url = `http://127.0.0.1:${address.port}`;
  tokenEndpoint = new MockGoogleTokenEndpoint(`${url}/token`, options.tokenEndpoint);

  return {
    url,
    port: address.port,
    baseUrls: {
      openai: `${url}/v1`,
      responses: `${url}/v1`,
      anthropic: url,
      gemini: `${url}/v1beta`,
      bedrock: url,
      transcriptions: `${url}/v1`,
    },
    requests,
    requestCount: () => received,
    batches: batchApis.batches,
    tokenEndpoint,
    vertexModelsUrl: (projectId, location, publisher = "google") =>
      `${url}/v1/projects/${projectId}/locations/${location}/publishers/${publisher}/models`,
    script: (...answers) => void sharedQueue.push(...answers),
    scriptFor: (route, ...answers) => void routeQueues[route].push(...answers),
    pendingAnswers: () =>
      sharedQueue.length + Object.values(routeQueues).reduce((total, queue) => total + queue.length, 0),
    connectionCount: () => sockets.size,
    activeRequests: () => active.size,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Sockets leave the set on their `close` event, so each one here has yet to emit it.
      const socketsClosed = [...sockets].map(
        (socket) => new Promise<void>((resolve) => socket.once("close", () => resolve())),
      );
      for (const socket of sockets) socket.destroy();
      await Promise.all([stopped, ...socketsClosed]);
    },
  };
}

function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", () => resolve(Buffer.concat(parts)));
    incoming.on("error", reject);
  });
}

/**
 * A multipart form's fields: text as it came, a file as `{ filename, type, size, base64 }`, so a test can
 * check what was uploaded.
 */
async function readFormFields(bytes: Buffer, contentType: string): Promise<Record<string, unknown>> {
  const form = await new Response(new Uint8Array(bytes), {
    headers: { "content-type": contentType },
  }).formData();
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") fields[name] = value;
    else {
      const content = Buffer.from(await value.arrayBuffer());
      fields[name] = {
        filename: value.name,
        type: value.type,
        size: content.length,
        base64: content.toString("base64"),
      };
    }
  }
  return fields;
}
