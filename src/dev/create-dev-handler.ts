import type { Ir, LlmFunction } from "../ir/index.js";
import type { MediaUrlPolicy, ProviderExtension, ReadTextFile } from "../llm/index.js";
import { type PromptClient, TemplateError } from "../prompt/index.js";
import type { SaplingRuntime } from "../runtime/index.js";
import {
  createSaplingHandler,
  errorResponse,
  HttpError,
  jsonResponse,
  readJsonObject,
  type SaplingHandler,
} from "../server/index.js";
import { checkLocalRequest } from "./check-local-request.js";
import type {
  DevCallRequest,
  DevEvalRequest,
  DevEvalResult,
  DevParseRequest,
  DevReplayRequest,
  DevRunRequest,
  DevTestResult,
  DevTestsRequest,
} from "./dev-api.js";
import { DevRuntimes } from "./dev-runtimes.js";
import type { DevSession } from "./dev-session.js";
import type { DevMock, DevMockAnswer } from "./mock-fetch.js";
import { exploreParse, replayParse, typeFromExpression } from "./parse-explorer.js";
import { projectEvents } from "./project-events.js";
import { type DevTokenCounter, previewPrompt } from "./prompt-preview.js";
import { type DevCostEstimator, runStream } from "./run-stream.js";

/** A built file of the page (`index.html`, `assets/…`). */
export interface DevAsset {
  body: Uint8Array;
  contentType: string;
}

export interface DevHandlerOptions {
  session: DevSession;
  /** The port the server listens on: only requests for this loopback host and port are answered. */
  port: number;
  /** Reads a file of the built page by its path (`index.html`, `assets/main.js`); `undefined` if absent. */
  readAsset: (path: string) => Promise<DevAsset | undefined>;
  /** Reads a file of the project by its path inside the baml_src folder (media of tests); `undefined` outside it. */
  readProjectFile?: (path: string) => Promise<DevAsset | undefined>;
  /** The mock LLM server, which runs and tests use when the page's mock switch is on. */
  mock: DevMock;
  /** The environment real runs read keys from. */
  env: Record<string, string | undefined>;
  readTextFile?: ReadTextFile;
  /** Provider adapters outside the runtime entry (`awsBedrock`), given to every runtime the page runs. */
  providers?: readonly ProviderExtension[];
  /** The media URL policy of every runtime the page runs (`--allow-media-host`); absent: none. */
  mediaUrls?: MediaUrlPolicy;
  /** The client a prompt renders for (a strategy resolved to its first leaf), as `sapling render` picks it. */
  promptClient: (ir: Ir, name: string) => PromptClient;
  /** JSON arguments as call arguments: media given as `{ "file" | "url" | "base64" }` become media values. */
  resolveArguments: (
    fn: LlmFunction,
    args: Record<string, unknown>,
    testFile?: string,
  ) => Promise<Record<string, unknown>>;
  /** Runs one `Function::Test` case against `runtime`, as `sapling test` does. */
  runTest: (ir: Ir, id: string, runtime: SaplingRuntime, signal: AbortSignal) => Promise<DevTestResult>;
  /**
   * Runs `sapling eval` for the Eval view (the CLI's engine: records in the project folder, resumed on a
   * rerun) and renders the table and the HTML report; absent: the view answers 501. A mistake in the
   * request (a dataset that does not read, an unknown client) throws `HttpError` 400.
   */
  runEval?: (ir: Ir, request: DevEvalRequest, signal: AbortSignal) => Promise<DevEvalRun>;
  /** Token counts per encoding; resolves `undefined` when the tokenizer is not installed. */
  countTokens?: Promise<DevTokenCounter | undefined>;
  estimateCost?: DevCostEstimator;
  /** Characters per streamed mock chunk and the pause between chunks, so partials are visible. */
  mockPacing?: { chunkSize: number; chunkDelayMs: number };
  /** Idle time after which the event stream sends a keep-alive comment (default 15000 ms). */
  heartbeatMs?: number;
}

/** What `runEval` hands back: the table as the terminal prints it, the HTML report, the records file. */
export interface DevEvalRun {
  table: string;
  html: string;
  records: string;
}

/** Answer profiles are clients named `mock/<profile>` (`sapling eval --client`); they call no model. */
const callsModel = (client: string): boolean => !client.startsWith("mock/");

/** The report is its own document: inline styles, no script, framed only by the page itself. */
const REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'";

/** The header that confirms a `/call` or `/stream` request to `sapling dev` may call a real model. */
export const DEV_CONFIRM_HEADER = "x-sapling-dev-confirm";

function confirmedByHeader(request: Request): boolean {
  return request.headers.get(DEV_CONFIRM_HEADER)?.trim().toLowerCase() === "true";
}

/** Request bodies of the dev routes are small (arguments, an answer); 20 MiB leaves room for media. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * (One function with its routes as closures over the shared state, in the style of the server room's
 * handler: the routes read top to bottom, then the table that dispatches them.)
 *
 * `sapling dev`'s web-standard handler: everything `sapling serve` answers (the same handler, rebuilt on
 * each good compile), plus the page and its `/_dev/*` routes. Every request passes the loopback Host and
 * Origin check first; a run or a test against a real model needs `confirm: true` (the page asks), and
 * `/call` or `/stream` the header `x-sapling-dev-confirm: true`.
 */
export function createDevHandler(options: DevHandlerOptions): SaplingHandler {
  const { session } = options;
  const pacing = options.mockPacing ?? { chunkSize: 12, chunkDelayMs: 15 };
  let serve: { ir: Ir; handler: SaplingHandler } | undefined;

  const runtimes = new DevRuntimes(options);

  const currentIr = (): Ir => {
    const ir = session.ir;
    if (!ir)
      throw new HttpError(
        409,
        "NOT_COMPILED",
        "The project has not compiled yet; fix the errors shown in the page.",
      );
    return ir;
  };

  const findFunction = (ir: Ir, name: unknown): LlmFunction => {
    const fn = ir.functions.find((item) => item.name === name);
    if (!fn) throw new HttpError(404, "UNKNOWN_FUNCTION", `No function "${String(name)}" in the project.`);
    return fn;
  };

  const readCall = async (request: Request) => {
    const body = (await readJsonObject(request, MAX_BODY_BYTES)) as unknown as DevCallRequest & DevRunRequest;
    const ir = currentIr();
    const fn = findFunction(ir, body.function);
    if (typeof body.args !== "object" || body.args === null || Array.isArray(body.args))
      throw new HttpError(
        400,
        "BAD_REQUEST",
        'The arguments must be a JSON object keyed by parameter name, e.g. {"text": "…"}.',
      );
    const testFile =
      typeof body.test === "string"
        ? ir.tests.find((test) => test.name === body.test)?.source?.file
        : undefined;
    let args: Record<string, unknown>;
    try {
      args = await options.resolveArguments(fn, body.args, testFile);
    } catch (error) {
      throw new HttpError(400, "BAD_ARGUMENTS", error instanceof Error ? error.message : String(error));
    }
    const client = typeof body.client === "string" && body.client !== "" ? body.client : undefined;
    return { ir, fn, args, client, body };
  };

  const requireConfirmation = (confirmed: unknown, what: string) => {
    if (confirmed !== true)
      throw new HttpError(
        409,
        "CONFIRM_REQUIRED",
        `${what} calls a real model with your API keys; confirm it in the page (or start sapling dev with --mock).`,
      );
  };

  const prompt = async (request: Request): Promise<Response> => {
    const { ir, fn, args, client } = await readCall(request);
    let promptClient: PromptClient;
    try {
      promptClient = options.promptClient(ir, client ?? fn.client);
    } catch (error) {
      throw new HttpError(400, "UNKNOWN_CLIENT", error instanceof Error ? error.message : String(error));
    }
    const countTokens = await options.countTokens;
    try {
      // The cURL shows the real request with keys masked; with the mock, it still shows the provider's URL.
      const preview = await previewPrompt({
        ir,
        fn,
        args,
        client: promptClient,
        runtime: runtimes.preview(ir),
        ...(client ? { clientOverride: client } : {}),
        ...(countTokens ? { countTokens } : {}),
      });
      return jsonResponse(200, preview);
    } catch (error) {
      if (TemplateError.isInstance(error)) throw new HttpError(422, "TEMPLATE_ERROR", error.message);
      throw error;
    }
  };

  const run = async (request: Request): Promise<Response> => {
    const { ir, fn, args, client, body } = await readCall(request);
    const useMock = typeof body.mock === "boolean" ? body.mock : session.settings.mock;
    if (!useMock) requireConfirmation(body.confirm, `Running ${fn.name}`);
    const text = typeof body.mockAnswer === "string" ? body.mockAnswer : defaultAnswer(fn.name);
    const answers: DevMockAnswer[] = [
      ...(body.failFirstAttempt === true
        ? [
            {
              type: "http-error" as const,
              status: 503,
              message: "The model is overloaded (the mock's simulated failure)",
            },
          ]
        : []),
      { type: "text", text, ...pacing },
    ];
    const { runtime, release } = runtimes.forRun(ir, useMock ? answers : undefined);
    return runStream({
      runtime,
      functionName: fn.name,
      args,
      ...(client ? { client } : {}),
      signal: request.signal,
      onEnd: release,
      ...(options.estimateCost ? { estimateCost: options.estimateCost } : {}),
    });
  };

  const defaultAnswer = (name: string): string =>
    session.view().functions.find((fn) => fn.name === name)?.mockAnswer ?? "";

  const tests = async (request: Request): Promise<Response> => {
    const body = (await readJsonObject(request, MAX_BODY_BYTES)) as DevTestsRequest;
    const ir = currentIr();
    const useMock = typeof body.mock === "boolean" ? body.mock : session.settings.mock;
    if (!useMock) requireConfirmation(body.confirm, "Running tests");
    const known = ir.tests.flatMap((test) => test.functions.map((name) => `${name}::${test.name}`));
    const ids = Array.isArray(body.ids) ? body.ids : known;
    const unknown = ids.filter((id) => !known.includes(id));
    if (unknown.length > 0)
      throw new HttpError(
        404,
        "UNKNOWN_TEST",
        `No test ${unknown.join(", ")}. Tests: ${known.join(", ") || "none"}.`,
      );
    const results: DevTestResult[] = [];
    for (const id of ids) {
      const functionName = id.slice(0, id.indexOf("::"));
      const answer = body.mockAnswers?.[functionName] ?? defaultAnswer(functionName);
      const { runtime, release } = runtimes.forRun(
        ir,
        useMock ? [{ type: "text", text: answer, chunkSize: 64, chunkDelayMs: 0 }] : undefined,
      );
      try {
        results.push(await options.runTest(ir, id, runtime, request.signal));
      } finally {
        release();
      }
    }
    return jsonResponse(200, { results });
  };

  let evalReport: { number: number; html: string } | undefined;

  const evaluate = async (request: Request): Promise<Response> => {
    const body = (await readJsonObject(request, MAX_BODY_BYTES)) as unknown as DevEvalRequest;
    const ir = currentIr();
    const fn = findFunction(ir, body.function);
    const strings = (value: unknown, name: string): string[] | undefined => {
      if (value === undefined) return undefined;
      if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item === ""))
        throw new HttpError(
          400,
          "BAD_REQUEST",
          `"${name}" must be a list of names, e.g. ["mock/clean-json"].`,
        );
      return value as string[];
    };
    const clients = strings(body.clients, "clients") ?? [fn.client];
    const modes = strings(body.modes, "modes");
    if ((typeof body.data === "string" && body.data !== "") === (body.tests === true))
      throw new HttpError(
        400,
        "BAD_REQUEST",
        'Name the rows: "data" (a .jsonl or .csv file in the project folder) or "tests": true (the test blocks), one of them.',
      );
    const real = clients.filter(callsModel);
    if (real.length > 0) requireConfirmation(body.confirm, `Evaluating ${fn.name} with ${real.join(", ")}`);
    if (!options.runEval) throw new HttpError(501, "NOT_AVAILABLE", "This server cannot run evals.");
    const run = await options.runEval(
      ir,
      { ...body, function: fn.name, clients, ...(modes ? { modes } : {}) },
      request.signal,
    );
    evalReport = { number: (evalReport?.number ?? 0) + 1, html: run.html };
    const result: DevEvalResult = {
      table: run.table,
      reportUrl: `/_dev/eval/report?run=${evalReport.number}`,
      records: run.records,
    };
    return jsonResponse(200, result);
  };

  /** `GET /_dev/eval/report`: the HTML report of the last eval, as `sapling eval --html` writes it. */
  const evalReportPage = (): Response => {
    if (!evalReport) throw new HttpError(404, "NOT_FOUND", "No eval has run yet; run one in the Eval view.");
    return new Response(evalReport.html, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": REPORT_POLICY,
        "x-content-type-options": "nosniff",
      },
    });
  };

  const parse = async (request: Request): Promise<Response> => {
    const body = (await readJsonObject(request, MAX_BODY_BYTES)) as unknown as DevParseRequest;
    const ir = currentIr();
    if (typeof body.text !== "string" || typeof body.type !== "string")
      throw new HttpError(400, "BAD_REQUEST", 'Send {"type": "Resume", "text": "the answer"}.');
    return jsonResponse(
      200,
      exploreParse(body.text, typeFromExpression(body.type, ir), ir, body.partial === true),
    );
  };

  const replay = async (request: Request): Promise<Response> => {
    const body = (await readJsonObject(request, MAX_BODY_BYTES)) as unknown as DevReplayRequest;
    const ir = currentIr();
    if (typeof body.text !== "string" || typeof body.type !== "string")
      throw new HttpError(
        400,
        "BAD_REQUEST",
        'Send {"type": "Resume", "text": "the answer", "chunkSize": 8}.',
      );
    const chunkSize = typeof body.chunkSize === "number" && body.chunkSize > 0 ? body.chunkSize : 8;
    return jsonResponse(200, replayParse(body.text, typeFromExpression(body.type, ir), ir, chunkSize));
  };

  const page = async (path: string): Promise<Response> => {
    const asset = await options.readAsset(path === "/" ? "index.html" : path.slice(1));
    if (!asset) {
      if (path === "/")
        throw new HttpError(
          500,
          "PAGE_NOT_BUILT",
          "The playground page is not built; run `npm run build` in the sapling checkout (installed packages ship it built).",
        );
      throw new HttpError(404, "NOT_FOUND", `No file ${path}.`);
    }
    return new Response(asset.body as BodyInit, {
      headers: {
        "content-type": asset.contentType,
        "cache-control": "no-cache",
        // Nothing from the network: scripts, styles and fonts come from this server only.
        "content-security-policy":
          "default-src 'self'; img-src 'self' data: https: http:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "x-content-type-options": "nosniff",
      },
    });
  };

  /** `GET /_dev/media?path=images/photo.png`: a media file a test names, to show it beside the arguments. */
  const media = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).searchParams.get("path") ?? "";
    const file = options.readProjectFile ? await options.readProjectFile(path) : undefined;
    if (!file) throw new HttpError(404, "NOT_FOUND", `No file ${path} in the project folder.`);
    return new Response(file.body as BodyInit, {
      headers: { "content-type": file.contentType, "x-content-type-options": "nosniff" },
    });
  };

  const serveRoutes = (request: Request): Promise<Response> => {
    // `/call` and `/stream` run the real clients with the developer's keys: the same consent as a run
    // from the page, given as a header since their body is the function's arguments.
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && /^\/(call|stream)\//.test(path) && !confirmedByHeader(request))
      throw new HttpError(
        409,
        "CONFIRM_REQUIRED",
        `POST ${path} calls a real model with your API keys; send the header "${DEV_CONFIRM_HEADER}: true" to ` +
          "confirm it, or run the function from the page with the mock switch on.",
      );
    const ir = currentIr();
    if (serve?.ir !== ir) serve = { ir, handler: createSaplingHandler({ runtime: runtimes.real(ir), ir }) };
    return serve.handler(request);
  };

  const route = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const method = request.method;
    const only = (wanted: string) => {
      if (method !== wanted && !(wanted === "GET" && method === "HEAD"))
        throw new HttpError(405, "METHOD_NOT_ALLOWED", `Use ${wanted} for ${path}.`, { allow: wanted });
    };
    if (path === "/" || path === "/index.html" || path.startsWith("/assets/")) {
      only("GET");
      return page(path === "/index.html" ? "/" : path);
    }
    if (!path.startsWith("/_dev/")) return serveRoutes(request);
    const routes: Record<string, [string, (request: Request) => Response | Promise<Response>]> = {
      "/_dev/project": ["GET", () => jsonResponse(200, session.view())],
      "/_dev/events": ["GET", (request) => projectEvents(session, request, options.heartbeatMs ?? 15_000)],
      "/_dev/prompt": ["POST", prompt],
      "/_dev/run": ["POST", run],
      "/_dev/parse": ["POST", parse],
      "/_dev/replay": ["POST", replay],
      "/_dev/tests": ["POST", tests],
      "/_dev/media": ["GET", media],
      "/_dev/eval": ["POST", evaluate],
      "/_dev/eval/report": ["GET", evalReportPage],
    };
    const found = routes[path];
    if (!found)
      throw new HttpError(
        404,
        "NOT_FOUND",
        `No route ${path}. Dev routes: ${Object.keys(routes).join(", ")}.`,
      );
    only(found[0]);
    return found[1](request);
  };

  return async (request) => {
    const refused = checkLocalRequest(request, options.port);
    if (refused) return errorResponse(new HttpError(403, "FOREIGN_REQUEST", refused));
    try {
      return await route(request);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
