import { configValueToPlain, type Ir, IrIndex, type LlmFunction, typeToString } from "../ir/index.js";
import { exampleArguments, exampleValue } from "../server/index.js";
import type { DevDiagnostics, DevFunctionView, DevProjectView, DevTestView } from "./dev-api.js";

/** One compile of the project, as the CLI hands it over after each save. */
export interface DevCompilation {
  /** The IR, when the files compile; absent when they have errors (the last good IR stays in use). */
  ir: Ir | undefined;
  diagnostics: DevDiagnostics;
  /** What regenerating baml_client/ did (one line per generator), or why it did not. */
  generated: string[];
}

/**
 * The project as the page sees it: the last IR that compiled, the diagnostics of the files as saved now,
 * and a version that grows with each reload. Listeners hear of every change (the page's event stream).
 */
export class DevSession {
  #version = 0;
  #ir: Ir | undefined;
  #compilation: DevCompilation;
  #view: DevProjectView | undefined;
  readonly #listeners = new Set<(version: number) => void>();

  constructor(
    first: DevCompilation,
    readonly settings: {
      root: string;
      mock: boolean;
      env: Record<string, string | undefined>;
      tokenizer: DevProjectView["tokenizer"];
      /** What the Eval view offers: answer profiles and dataset files (none when absent). */
      eval?: DevProjectView["eval"];
    },
  ) {
    this.#compilation = first;
    this.#ir = first.ir;
  }

  /** The last IR that compiled; `undefined` only when the project has never compiled. */
  get ir(): Ir | undefined {
    return this.#ir;
  }

  get version(): number {
    return this.#version;
  }

  /** Takes a new compile: a good IR replaces the old one; a broken one only updates the diagnostics. */
  update(compilation: DevCompilation): void {
    this.#compilation = compilation;
    if (compilation.ir) this.#ir = compilation.ir;
    this.#bump();
  }

  #bump(): void {
    this.#version++;
    this.#view = undefined;
    for (const listener of this.#listeners) listener(this.#version);
  }

  /** Says whether token counts are available (the tokenizer loads after the server starts). */
  setTokenizer(tokenizer: DevProjectView["tokenizer"]): void {
    this.settings.tokenizer = tokenizer;
    this.#bump();
  }

  /** Calls `listener` with the new version after every update; returns the unsubscribe function. */
  subscribe(listener: (version: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  view(): DevProjectView {
    this.#view ??= this.#buildView();
    return this.#view;
  }

  #buildView(): DevProjectView {
    const ir = this.#ir;
    const index = ir ? new IrIndex(ir) : undefined;
    return {
      version: this.#version,
      root: this.settings.root,
      functions: ir && index ? ir.functions.map((fn) => this.#functionView(fn, ir, index)) : [],
      clients: (ir?.clients ?? []).map((client) => ({ name: client.name, provider: client.provider })),
      diagnostics: this.#compilation.diagnostics,
      mock: this.settings.mock,
      tokenizer: this.settings.tokenizer,
      generated: this.#compilation.generated,
      eval: this.settings.eval ?? { profiles: [], datasets: [] },
    };
  }

  #functionView(fn: LlmFunction, ir: Ir, index: IrIndex): DevFunctionView {
    const tests = ir.tests
      .filter((test) => test.functions.includes(fn.name))
      .map((test): DevTestView => {
        let args: Record<string, unknown> = {};
        let argsError: string | undefined;
        try {
          args = Object.fromEntries(
            Object.entries(test.args).map(([name, value]) => [
              name,
              configValueToPlain(value, (variable) => this.#readEnv(variable, test.name)),
            ]),
          );
        } catch (error) {
          argsError = error instanceof Error ? error.message : String(error);
        }
        return {
          id: `${fn.name}::${test.name}`,
          name: test.name,
          args,
          ...(test.source ? { file: test.source.file } : {}),
          ...(argsError !== undefined ? { argsError } : {}),
          constraints: test.constraints.map((constraint) => ({
            level: constraint.level,
            ...(constraint.label !== undefined ? { label: constraint.label } : {}),
            expression: constraint.expression,
          })),
        };
      });
    return {
      name: fn.name,
      params: fn.params.map((param) => ({ name: param.name, type: typeToString(param.type) })),
      returnType: typeToString(fn.returnType),
      client: fn.client,
      ...(fn.source ? { source: `${fn.source.file}:${fn.source.line}` } : {}),
      tests,
      exampleArgs: exampleArguments(fn, index),
      mockAnswer: defaultMockAnswer(fn, index),
    };
  }

  #readEnv(name: string, testName: string): string {
    const value = this.settings.env[name];
    if (value === undefined) throw new Error(`test ${testName} reads env.${name}, which is not set.`);
    return value;
  }
}

/**
 * What the mock answers unless the page says otherwise: a small value of the return type, fenced and with
 * a line of prose before it, as chat models write (so the parse shows its repairs from the first run).
 */
export function defaultMockAnswer(fn: LlmFunction, index: IrIndex): string {
  const value = exampleValue(fn.returnType, index);
  return `Here is the result:\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n`;
}
