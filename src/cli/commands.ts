/**
 * The command table. Each row names a command, says in one line what it does (for `sapling --help`), and
 * loads its module only when that command runs: `sapling --version` and `--help` load none of them, and
 * `sapling check` never loads the runtime, the server or the code generator. A new command is one row here
 * plus its module under `commands/`; never a static import of a command module (test/entry-import-graph.test.ts
 * counts what `sapling --version` loads).
 */
import type { Command } from "./cli-context.js";

export interface CommandEntry {
  name: string;
  /** One line for `sapling --help`. */
  summary: string;
  /** Imports the command's module (a dynamic `import()`, so that nothing else pays for it). */
  load: () => Promise<Command>;
}

/** Every `sapling` command, in the order `--help` lists them. */
export const commands: readonly CommandEntry[] = [
  {
    name: "init",
    summary: "create baml_src/ with an example function, clients and a generator",
    load: async () => (await import("./commands/init.js")).initCommand,
  },
  {
    name: "generate",
    summary: "compile baml_src/ and write the typed TypeScript client (baml_client/)",
    load: async () => (await import("./commands/generate.js")).generateCommand,
  },
  {
    name: "check",
    summary: "report errors and warnings in baml_src/",
    load: async () => (await import("./commands/check.js")).checkCommand,
  },
  {
    name: "fmt",
    summary: "format the .baml files in baml_src/ (--check to verify only)",
    load: async () => (await import("./commands/fmt.js")).fmtCommand,
  },
  {
    name: "call",
    summary: "run a function with its clients and print the value as JSON",
    load: async () => (await import("./commands/call.js")).callCommand,
  },
  {
    name: "batch",
    summary: "run a function over a JSON-lines file of rows, resumably, with rate limits",
    load: async () => (await import("./commands/batch.js")).batchCommand,
  },
  {
    name: "eval",
    summary: "score a function on a dataset per client × output mode: accuracy, parse failures, tokens, cost",
    load: async () => (await import("./commands/eval.js")).evalCommand,
  },
  {
    name: "worker",
    summary: "run the rows of a queued batch (BullMQ on Redis), on any number of machines",
    load: async () => (await import("./commands/worker.js")).workerCommand,
  },
  {
    name: "render",
    summary: "show a function's rendered prompt or output schema with token counts",
    load: async () => (await import("./commands/render.js")).renderCommand,
  },
  {
    name: "parse",
    summary: "parse a model's answer into a typed value (JSON), one answer or a JSONL batch",
    load: async () => (await import("./commands/parse.js")).parseCommand,
  },
  {
    name: "test",
    summary: "run the project's test blocks against their models and check the results",
    load: async () => (await import("./commands/test.js")).testCommand,
  },
  {
    name: "serve",
    summary: "serve the functions over HTTP (call, stream, parse, OpenAPI, docs)",
    load: async () => (await import("./commands/serve.js")).serveCommand,
  },
  {
    name: "dev",
    summary: "open the playground in the browser: prompts, runs, the parse explorer, tests (live)",
    load: async () => (await import("./commands/dev.js")).devCommand,
  },
  {
    name: "mock",
    summary: "start the mock LLM server (scripted answers and faults) for calls without an API key",
    load: async () => (await import("./commands/mock.js")).mockCommand,
  },
  {
    name: "lsp",
    summary: "run the language server for editors (--stdio)",
    load: async () => (await import("./commands/lsp.js")).lspCommand,
  },
];
