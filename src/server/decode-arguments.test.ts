/**
 * Arguments through the handler: JSON keys that name JavaScript internals (`__proto__`) are data like any
 * other key, checked against the parameter's type and rendered into the prompt.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compile } from "../language/index.js";
import { SaplingRuntime } from "../runtime/index.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../testing/index.js";
import { createSaplingHandler, type SaplingHandler } from "./index.js";

const source = `
client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
  }
}

class Note {
  title string
}

function Banner(width: int) -> string {
  client Mock
  prompt #"{{ "=" * width }}"#
}

function Tally(counts: map<string, int>, notes: map<string, Note>) -> string {
  client Mock
  prompt #"
    {% for key, value in counts|items %}[{{ key }}={{ value }}]{% endfor %}
    {% for key, note in notes|items %}<{{ key }}:{{ note.title }}>{% endfor %}
  "#
}
`;

let server: MockLlmServer;
let handler: SaplingHandler;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  handler = createSaplingHandler({
    runtime: SaplingRuntime.fromIr(compiled.ir, { env: { MOCK_URL: server.baseUrls.openai } }),
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function call(body: string): Promise<Response> {
  return handler(
    new Request("http://sapling.test/call/Tally", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  );
}

describe("a map argument with a __proto__ key", () => {
  it("keeps the key as data: every entry reaches the prompt", async () => {
    server.script(answer("ok"));
    const response = await call(
      '{"counts": {"a": 1, "__proto__": 2, "b": 3}, "notes": {"__proto__": {"title": "first"}}}',
    );
    expect(response.status).toBe(200);
    const prompt = JSON.stringify(server.requests[0]?.body.messages);
    expect(prompt).toContain("[a=1][__proto__=2][b=3]");
    expect(prompt).toContain("<__proto__:first>");
    expect(prompt).not.toContain("[object Object]");
  });

  it("checks the key's value against the map's type", async () => {
    const response = await call('{"counts": {"a": 1, "__proto__": {"x": "y"}}, "notes": {}}');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("INVALID_ARGUMENT");
    expect(body.error.message).toContain('counts["__proto__"]');
    expect(server.requests).toHaveLength(0);
  });

  it("checks a class value under the key", async () => {
    const response = await call('{"counts": {}, "notes": {"__proto__": {"title": 5}}}');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('notes["__proto__"].title');
  });
});

describe("arguments that would make the prompt too long", () => {
  it("are refused with 413, saying what grew, and no model is called", async () => {
    const response = await handler(
      new Request("http://sapling.test/call/Banner", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"width": 1000000000}',
      }),
    );
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("PROMPT_TOO_LARGE");
    expect(body.error.message).toContain("would be 1000000000 characters");
    expect(server.requests).toHaveLength(0);
  });
});
