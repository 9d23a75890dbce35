import type { DevFunctionView, DevProjectView, DevTestView } from "../../src/dev/dev-api.js";

export type ViewName = "prompt" | "run" | "parse" | "tests" | "eval" | "diagnostics";

/** Everything the page remembers between renders; views read it and call `update` to change it. */
export interface PageState {
  project: DevProjectView | undefined;
  view: ViewName;
  functionName: string | undefined;
  /** The picked test of the function, or `undefined` for the example arguments. */
  testName: string | undefined;
  /** The arguments editor's text (JSON). */
  argsText: string;
  /** A client to use instead of the function's own ("" = its own). */
  client: string;
  useMock: boolean;
  failFirstAttempt: boolean;
  /** What the mock answers, per function, as edited in the page. */
  mockAnswers: Record<string, string>;
  /** The raw answer of the last run and its function's return type, for the parse explorer. */
  lastAnswer: { text: string; type: string } | undefined;
}

export const state: PageState = {
  project: undefined,
  view: "prompt",
  functionName: undefined,
  testName: undefined,
  argsText: "{}",
  client: "",
  useMock: true,
  failFirstAttempt: false,
  mockAnswers: {},
  lastAnswer: undefined,
};

export function currentFunction(): DevFunctionView | undefined {
  return state.project?.functions.find((fn) => fn.name === state.functionName);
}

export function currentTest(): DevTestView | undefined {
  return currentFunction()?.tests.find((test) => test.name === state.testName);
}

/** The mock answer of a function: the page's edit, or the server's default. */
export function mockAnswerOf(fn: DevFunctionView): string {
  return state.mockAnswers[fn.name] ?? fn.mockAnswer;
}

/** The arguments editor's JSON, or the reason it is not an object. */
export function parsedArgs(): { args: Record<string, unknown> } | { error: string } {
  try {
    const value: unknown = JSON.parse(state.argsText);
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return { error: "The arguments must be a JSON object keyed by parameter name." };
    return { args: value as Record<string, unknown> };
  } catch (error) {
    return {
      error: `The arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
