import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../language/index.js";
import { answer, type MockLlmServer, serverError, startMockLlmServer } from "../testing/index.js";
import { createDevHandler } from "./create-dev-handler.js";
import type { DevParseResult, DevProjectView, DevPromptPreview, DevReplayResult } from "./dev-api.js";
import { DevSession } from "./dev-session.js";
import { DEV_RUN_HEADER, type DevMockAnswer } from "./mock-fetch.js";

const source = `
class Person {
  name string
  age int @check(adult, {{ this >= 18 }})
}

client<llm> Cloud {
  provider openai
  options {
    model "gpt-4o-mini"
    api_key env.OPENAI_API_KEY
  }
}

// As \`sapling init\` writes it: the URL comes from the environment.
client<llm> Local {
  provider "openai-generic"
  options {
    base_url env.LOCAL_LLM_BASE_URL
    model "local-model"
  }
}

function ExtractPerson(text: string) -> Person {
  client Cloud
  prompt #"
    {{ _.role("system") }}
    Extract the person.
    {{ _.role("user") }}
    {{ text }}
    {{ ctx.output_format }}
  "#
}

test Ada {
  functions [ExtractPerson]
  args { text "Ada Lovelace, 36" }
  @@assert({{ this.name == "Ada Lovelace" }})
}
`;

const PORT = 4321;
let server: MockLlmServer;
const queues = new Map<string, DevMockAnswer[]>();
const noDiagnostics = { errors: 0, warnings: 0, text: "", items: [] };

function toMock(item: DevMockAnswer) {
  return item.type === "text"
    ? answer(item.text, { chunkSize: item.chunkSize })
    : serverError(item.status, item.message);
}

beforeAll(async () => {
  server = await startMockLlmServer({
    respond: (request) => {
      const queue = queues.get(request.headers[DEV_RUN_HEADER] ?? "");
      const next = queue && (queue.length > 1 ? queue.shift() : queue[0]);
      return next ? toMock(next) : undefined;
    },
  });
});
afterAll(() => server.close());

function handlerWith(countTokens?: (text: string) => Record<string, number>) {
  const { ir } = compile({ "main.baml": source });
  const session = new DevSession(
    { ir, diagnostics: noDiagnostics, generated: [] },
    {
      root: "baml_src",
      mock: true,
      env: {},
      tokenizer: {
        available: countTokens !== undefined,
        encodings: ["words"],
        install: "npm install js-tiktoken",
      },
    },
  );
  const handler = createDevHandler({
    session,
    port: PORT,
    readAsset: async () => undefined,
    mock: {
      url: server.url,
      queue: (id, answers) => queues.set(id, [...answers]),
      forget: (id) => queues.delete(id),
    },
    env: {},
    promptClient: (_ir, name) => ({ name, provider: "openai" }),
    resolveArguments: async (_fn, args) => args,
    runTest: async () => {
      throw new Error("not used here");
    },
    countTokens: Promise.resolve(countTokens),
    mockPacing: { chunkSize: 5, chunkDelayMs: 0 },
  });
  return { session, handler };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1:${PORT}${path}`, {
    method: "POST",
    headers: { host: `127.0.0.1:${PORT}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("createDevHandler", () => {
  it("answers an eval only with a runner, and has no report before the first eval", async () => {
    const { handler } = handlerWith();
    const get = (path: string) =>
      handler(new Request(`http://127.0.0.1:${PORT}${path}`, { headers: { host: `127.0.0.1:${PORT}` } }));
    expect((await get("/_dev/eval/report")).status).toBe(404);
    const profiles = { function: "ExtractPerson", data: "rows.jsonl", clients: ["mock/clean-json"] };
    const without = await handler(post("/_dev/eval", profiles));
    expect(without.status).toBe(501);
    // A client of clients.baml calls a real model: refused before any runner is asked.
    const real = await handler(post("/_dev/eval", { ...profiles, clients: ["Cloud"] }));
    expect(real.status).toBe(409);
    const noRows = await handler(
      post("/_dev/eval", { function: "ExtractPerson", clients: ["mock/clean-json"] }),
    );
    expect(noRows.status).toBe(400);
  });

  it("previews the prompt with roles, the output_format stretch, token counts and a masked cURL", async () => {
    const words = (text: string) => ({ words: text.split(/\s+/).filter(Boolean).length });
    const { handler } = handlerWith(words);
    const response = await handler(
      post("/_dev/prompt", { function: "ExtractPerson", args: { text: "Ada, 36" } }),
    );
    const preview = (await response.json()) as DevPromptPreview;
    expect(preview.messages.map((message) => message.role)).toEqual(["system", "user"]);
    const user = preview.messages[1]!.parts[0]!;
    if (user.type !== "text") throw new Error("a text part");
    const [span] = user.outputFormat;
    expect(user.text.slice(span!.start, span!.end)).toBe(preview.schema.text);
    expect(preview.messages[1]!.tokens).toEqual(words(user.text));
    expect(preview.totalTokens?.words).toBe(words("Extract the person.").words + words(user.text).words);
    expect(preview.curl).toContain("'authorization: [REDACTED]'");
    expect(preview.curl).not.toContain("mock-openai_api_key");
  });

  it("says the tokenizer is missing instead of counting", async () => {
    const { handler, session } = handlerWith(undefined);
    const response = await handler(
      post("/_dev/prompt", { function: "ExtractPerson", args: { text: "Ada" } }),
    );
    const preview = (await response.json()) as DevPromptPreview;
    expect(preview.totalTokens).toBeNull();
    expect(preview.messages[0]!.tokens).toBeNull();
    expect(session.view().tokenizer).toEqual({
      available: false,
      encodings: ["words"],
      install: "npm install js-tiktoken",
    });
  });

  const runEvents = async (
    handler: (request: Request) => Promise<Response>,
    failFirstAttempt: boolean,
    client?: string,
  ) => {
    const response = await handler(
      post("/_dev/run", {
        function: "ExtractPerson",
        args: { text: "Ada" },
        mockAnswer: '{"name": "Ada Lovelace", "age": 36}',
        failFirstAttempt,
        ...(client ? { client } : {}),
      }),
    );
    return [...(await response.text()).matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((match) => ({
      name: match[1],
      data: JSON.parse(match[2]!) as Record<string, unknown>,
    }));
  };

  it("streams a mock run: partials with the raw text so far, then the final value, checks and attempts", async () => {
    const { handler } = handlerWith();
    const events = await runEvents(handler, false);
    const partials = events.filter((event) => event.name === "partial");
    expect(partials.length).toBeGreaterThan(2);
    for (const partial of partials)
      expect('{"name": "Ada Lovelace", "age": 36}'.startsWith(partial.data.raw as string)).toBe(true);
    const final = events.at(-1)!;
    expect(final.name).toBe("final");
    expect(final.data.value).toEqual({
      name: "Ada Lovelace",
      age: { value: 36, checks: { adult: { name: "adult", expr: "this >= 18", status: "succeeded" } } },
    });
    expect(final.data.checks).toEqual([
      { path: "$.age", name: "adult", expression: "this >= 18", passed: true },
    ]);
    expect(final.data.attempts).toMatchObject([
      { client: "Cloud", provider: "openai", status: 200, selected: true },
    ]);
    expect(final.data.raw).toBe('{"name": "Ada Lovelace", "age": 36}');
  });

  it("runs a client whose base_url comes from env (sapling init's Local) against the mock", async () => {
    const { handler } = handlerWith();
    server.requests.length = 0;
    const events = await runEvents(handler, false, "Local");
    const final = events.at(-1)!;
    expect(final.name, JSON.stringify(final.data)).toBe("final");
    expect(final.data.attempts).toMatchObject([
      { client: "Local", provider: "openai-generic", status: 200, selected: true },
    ]);
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions"]);
  });

  it("fails the first attempt when asked: a client without fallback reports the 503 and its attempt", async () => {
    const { handler } = handlerWith();
    const events = await runEvents(handler, true);
    expect(events.map((event) => event.name)).toEqual(["error"]);
    expect(events[0]!.data.message).toMatch(/HTTP 503/);
    expect(events[0]!.data.attempts).toMatchObject([{ client: "Cloud", status: 503, selected: false }]);
  });

  it("needs confirmation for a run against a real model", async () => {
    const { handler } = handlerWith();
    const response = await handler(
      post("/_dev/run", { function: "ExtractPerson", args: { text: "Ada" }, mock: false }),
    );
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("CONFIRM_REQUIRED");
    const tests = await handler(post("/_dev/tests", { mock: false }));
    expect(tests.status).toBe(409);
  });

  it("needs confirmation for /call and /stream, which run the real clients, but not for /parse", async () => {
    const { handler } = handlerWith();
    server.requests.length = 0;
    for (const path of ["/call/ExtractPerson", "/stream/ExtractPerson"]) {
      const refused = await handler(post(path, { text: "Ada" }));
      expect(refused.status, path).toBe(409);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("CONFIRM_REQUIRED");
      expect(error.message).toContain('"x-sapling-dev-confirm: true"');
      // Confirmed, the call goes on (and fails here for want of OPENAI_API_KEY, not for want of consent).
      const confirmed = await handler(post(path, { text: "Ada" }, { "x-sapling-dev-confirm": "true" }));
      expect(confirmed.status, path).not.toBe(409);
    }
    const parsed = await handler(post("/parse/ExtractPerson", { text: '{"name": "Ada", "age": 36}' }));
    expect(parsed.status).toBe(200);
    expect(server.requests).toHaveLength(0);
  });

  it("parses with repairs and spans, reports a failure's path, and replays chunk by chunk", async () => {
    const { handler } = handlerWith();
    const parsed = (await (
      await handler(post("/_dev/parse", { type: "Person", text: '{name: "Ada", age: "36.4"}' }))
    ).json()) as DevParseResult;
    if (!parsed.ok) throw new Error("parses");
    expect(parsed.repairs.map((repair) => repair.kind)).toEqual(
      expect.arrayContaining(["FixedJson", "FloatToInt"]),
    );
    const failed = (await (
      await handler(post("/_dev/parse", { type: "Person", text: "{}" }))
    ).json()) as DevParseResult;
    expect(failed).toMatchObject({ ok: false, error: { path: "$.name" } });
    const text = '{"name": "Ada", "age": 36}';
    const replay = (await (
      await handler(post("/_dev/replay", { type: "Person", text, chunkSize: 4 }))
    ).json()) as DevReplayResult;
    expect(replay.steps.at(-1)!.end).toBe(text.length);
    expect(replay.steps.map((step) => step.end)).toEqual(
      [...replay.steps.map((step) => step.end)].sort((a, b) => a - b),
    );
    const bad = await handler(post("/_dev/parse", { type: "Nope", text: "{}" }));
    expect(bad.status).toBe(400);
  });

  it("keeps the last good project when a compile fails, and announces each update", async () => {
    const { handler, session } = handlerWith();
    const seen: number[] = [];
    session.subscribe((version) => seen.push(version));
    const broken = { errors: 1, warnings: 0, text: "main.baml:3:7 error", items: [] };
    session.update({ ir: undefined, diagnostics: broken, generated: [] });
    const view = (await (
      await handler(
        new Request(`http://127.0.0.1:${PORT}/_dev/project`, { headers: { host: `127.0.0.1:${PORT}` } }),
      )
    ).json()) as DevProjectView;
    expect(view.functions.map((fn) => fn.name)).toEqual(["ExtractPerson"]);
    expect(view.diagnostics.errors).toBe(1);
    expect(seen).toEqual([1]);
  });

  it("refuses foreign hosts and origins on every route, the serve routes included", async () => {
    const { handler } = handlerWith();
    const foreign: Record<string, string>[] = [{ host: "evil.example" }, { origin: "http://evil.example" }];
    for (const headers of foreign) {
      for (const path of ["/_dev/run", "/call/ExtractPerson", "/"]) {
        const response = await handler(post(path, {}, headers));
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
  });
});
