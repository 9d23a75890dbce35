/**
 * The request-body cases of test/fixtures/requests/*.txt (the prompt fixtures' case format) and how
 * Sapling builds each body. Shared by test/request-bodies.test.ts (Sapling against `--- expect`) and the
 * prompt benchmark (the real BAML against the same cases, bench/compare/request-fixtures.ts).
 */
import { join } from "node:path";
import { awsBedrock } from "../src/aws-bedrock/index.js";
import { compile } from "../src/language/index.js";
import { SaplingRuntime } from "../src/runtime/index.js";
import { type FixtureCase, readFixtureCases } from "./prompt-fixture-cases.js";

export const requestFixtureFolder = join(import.meta.dirname, "fixtures", "requests");

/** Keys every case may use without saying so; `--- env:` adds or replaces some. */
export const requestFixtureEnv: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: "k",
  ANTHROPIC_API_KEY: "k",
  GOOGLE_API_KEY: "k",
  AZURE_OPENAI_API_KEY: "k",
  OPENROUTER_API_KEY: "k",
};

export interface RequestCase {
  fixture: FixtureCase;
  functionName: string;
  args: Record<string, unknown>;
  env: Record<string, string>;
  stream: boolean;
  /** Where a deliberate difference from BAML is documented; BAML's body is then `bamlBody`. */
  differs: string | undefined;
  bamlBody: string | undefined;
}

export function readRequestCases(): RequestCase[] {
  return readFixtureCases(requestFixtureFolder).map((fixture) => {
    const settings = fixture.settings;
    const functionName = /function\s+(\w+)/.exec(fixture.baml)?.[1];
    if (functionName === undefined) throw new Error(`${fixture.file}: ${fixture.name}: no function`);
    return {
      fixture,
      functionName,
      args: JSON.parse(settings.args ?? "{}") as Record<string, unknown>,
      env: { ...requestFixtureEnv, ...(JSON.parse(settings.env ?? "{}") as Record<string, string>) },
      stream: settings.stream === "true",
      differs: settings.differs,
      bamlBody: settings.baml,
    };
  });
}

/** A fetch that refuses every call: building a request must not download anything. */
const noNetwork: typeof fetch = async (input) => {
  throw new Error(
    `a request body fixture tried to fetch ${String(input instanceof Request ? input.url : input)}`,
  );
};

/** Sapling's body for a case, as JSON text (keys in order). */
export async function saplingRequestBody(item: RequestCase): Promise<string> {
  const { ir, diagnostics } = compile({ "main.baml": item.fixture.baml });
  if (!ir)
    throw new Error(`does not compile: ${diagnostics.map((diagnostic) => diagnostic.message).join("; ")}`);
  const runtime = SaplingRuntime.fromIr(ir, {
    env: item.env,
    readTextFile: null,
    fetch: noNetwork,
    providers: [awsBedrock],
  });
  const request = await runtime.buildRequest(item.functionName, item.args, { stream: item.stream });
  return JSON.stringify(request.body);
}
