/**
 * `@check`/`@assert` without the Jinja engine in the runtime entry (docs/decisions/0048-lazy-prompt-renderer.md):
 * a parse with no call evaluates them with the evaluator the runtime was given and, without one, fails at
 * once saying what to pass; a call loads the prompt room for its prompt and evaluates them with it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import { evaluateConstraint } from "../prompt/index.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../testing/index.js";
import { BamlInvalidArgumentError, BamlValidationError } from "./errors.js";
import { SaplingRuntime } from "./sapling-runtime.js";

const SOURCE = `
class Person {
  name string @assert(named, {{ this|length > 0 }})
  age int @check(adult, {{ this >= 18 }})
}

class Plain {
  name string
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
    api_key "sk-test"
  }
}

function ExtractPerson(text: string) -> Person {
  client Mock
  prompt #"Extract the person from: {{ text }} {{ ctx.output_format }}"#
}

function ExtractPlain(text: string) -> Plain {
  client Mock
  prompt #"Extract: {{ text }} {{ ctx.output_format }}"#
}
`;

const ADA = '{"name": "Ada", "age": 36}';
const ADULT = {
  name: "Ada",
  age: { value: 36, checks: { adult: { name: "adult", expr: "this >= 18", status: "succeeded" } } },
};

let server: MockLlmServer;
let ir: Ir;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": SOURCE });
  if (!compiled.ir) throw new Error(`fixture does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  ir = compiled.ir;
});
afterAll(async () => {
  await server.close();
});

function runtime(constraintEvaluator?: typeof evaluateConstraint): SaplingRuntime {
  return SaplingRuntime.fromIr(ir, {
    env: { MOCK_URL: server.baseUrls.openai },
    ...(constraintEvaluator === undefined ? {} : { constraintEvaluator }),
  });
}

describe("a parse without a call", () => {
  it("evaluates checks and asserts with the evaluator the runtime was given", () => {
    const instance = runtime(evaluateConstraint);
    expect(instance.parse("ExtractPerson", ADA)).toEqual(ADULT);
    expect(instance.parseStream("ExtractPerson", '{"name": "Ada", "age": 12}')).toMatchObject({
      age: { value: 12, checks: { adult: { status: "failed" } } },
    });
    expect(instance.explain("ExtractPerson", ADA).value).toEqual(ADULT);
    expect(() => instance.parse("ExtractPerson", '{"name": "", "age": 36}')).toThrow(BamlValidationError);
  });

  it("fails at once, saying what to pass, when the type has constraints and no evaluator was given", () => {
    const instance = runtime();
    for (const parse of [
      () => instance.parse("ExtractPerson", ADA),
      () => instance.parseStream("ExtractPerson", ADA),
      () => instance.explain("ExtractPerson", ADA),
    ]) {
      expect(parse).toThrow(BamlInvalidArgumentError);
      expect(parse).toThrow(/ExtractPerson .*@check\/@assert.*"sapling-llm\/constraints"/);
    }
    // A type without constraints needs no evaluator.
    expect(instance.parse("ExtractPlain", '{"name": "Ada"}')).toEqual({ name: "Ada" });
  });
});

describe("a call", () => {
  it("evaluates checks with the prompt room it loads, when the runtime was given no evaluator", async () => {
    server.script(answer(ADA));
    expect(await runtime().call("ExtractPerson", { text: "Ada, 36" })).toEqual(ADULT);
    server.script(answer(ADA, { chunkSize: 4 }));
    const stream = runtime().stream("ExtractPerson", { text: "Ada, 36" }, { partialIntervalMs: 0 });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(await stream.getFinalResponse()).toEqual(ADULT);
  });

  it("evaluates them with the evaluator the runtime was given, when it has one", async () => {
    const seen: string[] = [];
    const counting = (expression: string, value: unknown): boolean => {
      seen.push(expression);
      return evaluateConstraint(expression, value);
    };
    server.script(answer(ADA));
    expect(await runtime(counting).call("ExtractPerson", { text: "Ada, 36" })).toEqual(ADULT);
    expect(seen).toContain("this >= 18");
  });
});
