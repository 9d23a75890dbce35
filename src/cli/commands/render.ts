import { join } from "node:path";
import type { Diagnostic } from "../../diagnostics/index.js";
import { emptyIr, type Ir, IrIndex, type Type } from "../../ir/index.js";
import { compile, parseTypeExpression, renderDiagnostics } from "../../language/index.js";
import {
  OutputFormatError,
  parseOutputFormatOptions,
  renderOutputFormat,
  renderPrompt,
  TemplateError,
  toJsonSchema,
} from "../../prompt/index.js";
import { BamlInvalidArgumentError, validateArguments } from "../../runtime/index.js";
import type { ChatMessage } from "../../util/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import {
  importTiktoken,
  loadTokenCounter,
  type TiktokenLoader,
  TOKENIZER_MISSING,
  type TokenCounter,
  type TokenCounts,
} from "../count-tokens.js";
import { displayPath, loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { readArgumentsFlag } from "../read-arguments-flag.js";
import { unknownFunction } from "../unknown-function.js";
import { formatRenderedMessages } from "./format-rendered-messages.js";
import { toMediaArguments } from "./media-arguments.js";
import { resolvePromptClient } from "./render-client.js";

const usage = `Usage: sapling render <Function> [--from DIR] [--args JSON|@FILE|-] [--client NAME]
       sapling render <Function> --schema-only [--type "<type expr>"] [--options JSON] [--from DIR]
       sapling render --jsonl [FILE]

Renders a function's prompt exactly as it would be sent (no model is called) and counts its tokens
offline in o200k_base (GPT-4o) and cl100k_base (GPT-4) when the optional package js-tiktoken is
installed (npm install --save-dev js-tiktoken).

Options:
  --from DIR      the baml_src folder (default ./baml_src)
  --args JSON     the arguments as a JSON object keyed by parameter name; @FILE reads a file, - stdin.
                  Media: {"url": "…"}, {"file": "photo.png"} or {"base64": "…", "media_type": "image/png"}
  --client NAME   render for this client instead of the function's own (roles differ per provider)
  --schema-only   print only ctx.output_format for the return type (or --type), with its token count
                  beside the token count of the equivalent minified JSON Schema
  --type EXPR     a type expression for --schema-only, e.g. "Resume[]" or "map<string, int>"
  --options JSON  ctx.output_format options for --schema-only, e.g. '{"hoist_classes": true}'
  --jsonl [FILE]  batch mode: read lines {"id", "baml", "target", "options"} (FILE or stdin) and write
                  {"id", "text", "tokens": {"o200k_base", "cl100k_base"}} per line ("tokens" is null
                  without js-tiktoken)

Example:
  sapling render EvaluateResume --schema-only --from examples/resume/baml_src
`;

/** `sapling render`: show a rendered prompt or schema and what it costs in tokens. */
export const renderCommand: Command = renderCommandWith(importTiktoken);

/** `sapling render` counting tokens with the js-tiktoken that `load` finds (tests inject an absent one). */
export function renderCommandWith(load: TiktokenLoader): Command {
  return {
    usage,
    run: async (argv: string[], context: CliContext): Promise<number> => {
      const count = async (): Promise<TokenCounter | undefined> => {
        const counter = await loadTokenCounter(load);
        if (!counter) context.stderr(`note: ${TOKENIZER_MISSING}\n`);
        return counter;
      };
      const flags = parseFlags(
        argv,
        {
          from: { type: "string" },
          args: { type: "string" },
          client: { type: "string" },
          "schema-only": { type: "boolean" },
          type: { type: "string" },
          options: { type: "string" },
          jsonl: { type: "boolean" },
        },
        1,
      );
      if (booleanFlag(flags, "jsonl")) return renderJsonLines(flags.positionals[0], context, count);
      const functionName = flags.positionals[0];
      const typeText = stringFlag(flags, "type");
      if (!functionName && !(booleanFlag(flags, "schema-only") && typeText)) {
        throw new UsageError("name the function to render, e.g. `sapling render ExtractResume`");
      }
      const dir = projectDirectory(context, stringFlag(flags, "from"));
      const { ir } = await loadCompiledProject(dir, context);
      const fn = functionName ? ir.functions.find((item) => item.name === functionName) : undefined;
      if (functionName && !fn) throw unknownFunction(functionName, ir);

      if (booleanFlag(flags, "schema-only")) {
        const type = typeText ? typeFromText(typeText, ir) : (fn?.returnType as Type);
        const options = parseOptions(stringFlag(flags, "options"));
        await printSchema(ir, type, options, context, await count());
        return 0;
      }
      if (!fn) throw new UsageError("--type needs --schema-only");
      const args = await toMediaArguments(
        await readArgumentsFlag(stringFlag(flags, "args"), context),
        fn,
        new IrIndex(ir),
        { baseDir: context.cwd, where: "--args", relativeTo: "the current folder" },
      );
      // The check `sapling call` and the runtime make: an unknown key or a mistyped value is an error here too.
      try {
        validateArguments(fn, args, new IrIndex(ir));
      } catch (error) {
        if (BamlInvalidArgumentError.isInstance(error)) throw new CliError(`--args: ${error.message}`);
        throw error;
      }
      const client = resolvePromptClient(ir, stringFlag(flags, "client") ?? fn.client);
      let messages: ChatMessage[];
      try {
        messages = renderPrompt(ir, fn.name, args, { client });
      } catch (error) {
        if (TemplateError.isInstance(error)) throw new CliError(withProjectPath(error, dir, context));
        throw error;
      }
      printMessages(messages, client.name, context, await count());
      return 0;
    },
  };
}

function withProjectPath(error: TemplateError, dir: string, context: CliContext): string {
  if (!error.location) return error.message;
  const file = displayPath(context, join(dir, error.location.file));
  return error.message.replace(`${error.location.file}:`, `${file}:`);
}

function typeFromText(text: string, ir: Ir): Type {
  const { type, diagnostics } = parseTypeExpression(text, ir);
  if (!type)
    throw new CliError(
      `--type "${text}" is not a valid type:\n${renderDiagnostics(diagnostics, { "<type>": text })}`,
    );
  return type;
}

function parseOptions(text: string | undefined): ReturnType<typeof parseOutputFormatOptions> {
  if (text === undefined) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CliError(`--options is not valid JSON: ${text}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new CliError("--options must be a JSON object.");
  try {
    return parseOutputFormatOptions(raw as Record<string, unknown>);
  } catch (error) {
    if (OutputFormatError.isInstance(error)) throw new CliError(error.message);
    throw error;
  }
}

function schemaTexts(
  ir: Ir,
  type: Type,
  options: ReturnType<typeof parseOutputFormatOptions>,
): { text: string; jsonSchema: string } {
  try {
    return {
      text: renderOutputFormat(ir, type, options),
      jsonSchema: JSON.stringify(toJsonSchema(ir, type)),
    };
  } catch (error) {
    if (OutputFormatError.isInstance(error)) throw new CliError(error.message);
    throw error;
  }
}

function printSchema(
  ir: Ir,
  type: Type,
  options: ReturnType<typeof parseOutputFormatOptions>,
  context: CliContext,
  countTokens: TokenCounter | undefined,
): void {
  const { text, jsonSchema } = schemaTexts(ir, type, options);
  context.stdout(text === "" ? "(output_format renders nothing for this type)\n" : `${text}\n`);
  if (!countTokens) return;
  const schemaTokens = countTokens(text);
  const jsonTokens = countTokens(jsonSchema);
  const row = (label: string, counts: TokenCounts): string =>
    `${label.padEnd(26)}${String(counts.o200k_base).padStart(11)}${String(counts.cl100k_base).padStart(13)}`;
  const ratio = (encoding: keyof TokenCounts): string =>
    schemaTokens[encoding] === 0 ? "-" : `${(jsonTokens[encoding] / schemaTokens[encoding]).toFixed(2)}x`;
  context.stdout(
    [
      "",
      `${"tokens".padEnd(26)}${"o200k_base".padStart(11)}${"cl100k_base".padStart(13)}`,
      row("output_format", schemaTokens),
      row("JSON Schema (minified)", jsonTokens),
      `${"JSON Schema / output_format".padEnd(26)}${ratio("o200k_base").padStart(11)}${ratio("cl100k_base").padStart(13)}`,
      "",
    ].join("\n"),
  );
}

function printMessages(
  messages: ChatMessage[],
  clientName: string,
  context: CliContext,
  countTokens: TokenCounter | undefined,
): void {
  context.stdout(formatRenderedMessages(messages, clientName, countTokens));
}

/** One `--jsonl` request: a self-contained BAML snippet, a target type, and output_format options. */
interface JsonLineRequest {
  id?: unknown;
  baml?: unknown;
  target?: unknown;
  options?: unknown;
}

async function renderJsonLines(
  file: string | undefined,
  context: CliContext,
  count: () => Promise<TokenCounter | undefined>,
): Promise<number> {
  const input =
    file === undefined || file === "-"
      ? await context.readStdin()
      : await import("node:fs/promises").then((fs) =>
          fs.readFile(join(context.cwd, file), "utf8").catch(() => {
            throw new CliError(`cannot read ${file}.`);
          }),
        );
  const countTokens = await count();
  let failures = 0;
  for (const [index, line] of input.split("\n").entries()) {
    if (line.trim() === "") continue;
    let request: JsonLineRequest;
    try {
      request = JSON.parse(line) as JsonLineRequest;
    } catch {
      failures++;
      context.stdout(`${JSON.stringify({ id: null, error: `line ${index + 1} is not JSON` })}\n`);
      continue;
    }
    try {
      const text = renderJsonLine(request);
      context.stdout(
        `${JSON.stringify({ id: request.id ?? null, text, tokens: countTokens?.(text) ?? null })}\n`,
      );
    } catch (error) {
      failures++;
      const message = error instanceof Error ? error.message : String(error);
      context.stdout(`${JSON.stringify({ id: request.id ?? null, error: message })}\n`);
    }
  }
  return failures > 0 ? 1 : 0;
}

function renderJsonLine(request: JsonLineRequest): string {
  if (typeof request.target !== "string") throw new Error('"target" must be a type expression string.');
  let ir: Ir = emptyIr();
  if (typeof request.baml === "string" && request.baml.trim() !== "") {
    const compiled = compile({ "request.baml": request.baml });
    if (!compiled.ir) throw new Error(`the BAML does not compile: ${firstError(compiled.diagnostics)}`);
    ir = compiled.ir;
  }
  const { type, diagnostics } = parseTypeExpression(request.target, ir);
  if (!type) throw new Error(`"target" is not a valid type: ${firstError(diagnostics)}`);
  const options = request.options === undefined || request.options === null ? {} : request.options;
  if (typeof options !== "object" || Array.isArray(options)) throw new Error('"options" must be an object.');
  return renderOutputFormat(ir, type, parseOutputFormatOptions(options as Record<string, unknown>));
}

function firstError(diagnostics: readonly Diagnostic[]): string {
  const first = diagnostics.find((diagnostic) => diagnostic.severity === "error") ?? diagnostics[0];
  return first ? first.message : "unknown error";
}
