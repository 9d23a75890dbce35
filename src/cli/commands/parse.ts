import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Ir, Type } from "../../ir/index.js";
import { parseTypeExpression, renderDiagnostics } from "../../language/index.js";
import { type CompiledSchema, compileSchema, SchemaError } from "../../parse-with-schema.js";
import { evaluateConstraint } from "../../prompt/index.js";
import {
  explainFlags,
  type ParseResult,
  parsePartial,
  parseValue,
  SapConfigurationError,
  SapParseError,
} from "../../sap/index.js";
import { hasErrorMark, markError } from "../../util/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { displayPath, loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, parseFlags, stringFlag } from "../parse-flags.js";

const usage = `Usage: sapling parse --type "<type expr>" [--from DIR] [--explain] [--partial] [FILE|-]
       sapling parse --jsonl [--from DIR] [--type "<type expr>"] [FILE|-]

Parses a model's answer (FILE, or standard input) into a value of the type, the way the generated client
would, and prints it as JSON. Types come from the project in DIR (default ./baml_src).

Options:
  --type EXPR   the target type, e.g. "Resume", "Resume[]", "map<string, int>"
  --from DIR    the baml_src folder that declares the types
  --explain     also list every repair made (on standard error)
  --partial     treat the answer as the beginning of a stream (unwritten fields are null)
  --jsonl       bulk mode: each input line is {"id", "baml"?, "target", "raw", "partial"?}; each output
                line is {"id", "ok", "value", "flags", "error"}. "baml" is source text declaring the types
                (else --from is used); "target" defaults to --type; "partial": true parses "raw" as the
                beginning of a stream (the answer line then says "partial": true). A bad line gets
                ok: false and the run goes on.

Examples:
  sapling parse --type CandidateEvaluation --explain answer.txt
  sapling parse --jsonl --from baml_src logged-answers.jsonl > reparsed.jsonl
`;

/** `sapling parse`: run the Schema-Aligned Parser on saved model answers. */
export const parseCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        from: { type: "string" },
        type: { type: "string" },
        explain: { type: "boolean" },
        partial: { type: "boolean" },
        jsonl: { type: "boolean" },
      },
      1,
    );
    const input = await readInput(flags.positionals[0], context);
    const typeText = stringFlag(flags, "type");
    const partial = booleanFlag(flags, "partial");
    if (booleanFlag(flags, "jsonl")) {
      return parseJsonLines(input, { from: stringFlag(flags, "from"), typeText, partial }, context);
    }
    if (!typeText) throw new UsageError('name the target type, e.g. --type "Resume"');
    const dir = projectDirectory(context, stringFlag(flags, "from"));
    const { ir } = await loadCompiledProject(dir, context);
    const type = typeFromText(typeText, ir);
    let result: ParseResult;
    try {
      result = partial
        ? parsePartial(input, type, ir, { constraintEvaluator: evaluateConstraint })
        : parseValue(input, type, ir, { constraintEvaluator: evaluateConstraint });
    } catch (error) {
      if (SapParseError.isInstance(error) || SapConfigurationError.isInstance(error))
        throw new CliError(error.message);
      throw error;
    }
    context.stdout(`${JSON.stringify(result.value, null, 2)}\n`);
    if (booleanFlag(flags, "explain")) context.stderr(`${explainFlags(result, input)}\n`);
    return 0;
  },
};

async function readInput(file: string | undefined, context: CliContext): Promise<string> {
  if (file === undefined || file === "-") return context.readStdin();
  const path = resolve(context.cwd, file);
  try {
    return await readFile(path, "utf8");
  } catch {
    throw new CliError(`cannot read ${displayPath(context, path)}; check the path.`);
  }
}

function typeFromText(text: string, ir: Ir): Type {
  const { type, diagnostics } = parseTypeExpression(text, ir);
  if (!type) {
    throw new UsageError(
      `--type "${text}" is not a valid type:\n${renderDiagnostics(diagnostics, { "<type>": text })}`,
    );
  }
  return type;
}

interface BatchOptions {
  from: string | undefined;
  typeText: string | undefined;
  partial: boolean;
}

/** One output line of `--jsonl`. */
interface BatchLine {
  id: unknown;
  ok: boolean;
  value: unknown;
  flags: ParseResult["flags"];
  error: { code: string; message: string; path?: string } | null;
  /** Present on the answer to a line parsed as the beginning of a stream. */
  partial?: true;
}

/**
 * The `--jsonl` loop: every line is parsed on its own; a malformed line, a schema that does not compile
 * or an answer that does not parse becomes `ok: false` with the reason, and the next line is read.
 */
async function parseJsonLines(input: string, options: BatchOptions, context: CliContext): Promise<number> {
  const schemas = new Map<string, CompiledSchema>();
  let project: Ir | undefined;
  let projectFailure: string | undefined;
  const projectIr = async (): Promise<Ir> => {
    if (project) return project;
    if (projectFailure) throw new LineError("no-schema", projectFailure);
    try {
      project = (await loadCompiledProject(projectDirectory(context, options.from), context)).ir;
      return project;
    } catch (error) {
      projectFailure = `the line has no "baml" and the project could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
      throw new LineError("no-schema", projectFailure);
    }
  };
  let ok = 0;
  let failed = 0;
  const lines = input.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    if (text.trim() === "") continue;
    const line = await parseLine(text, index + 1, options, schemas, projectIr);
    if (line.ok) ok++;
    else failed++;
    context.stdout(`${JSON.stringify(line)}\n`);
  }
  context.stderr(`Parsed ${ok + failed} line${ok + failed === 1 ? "" : "s"}: ${ok} ok, ${failed} failed.\n`);
  return 0;
}

class LineError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    markError(this, "LineError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is LineError {
    return hasErrorMark(value, "LineError");
  }
}

async function parseLine(
  text: string,
  lineNumber: number,
  options: BatchOptions,
  schemas: Map<string, CompiledSchema>,
  projectIr: () => Promise<Ir>,
): Promise<BatchLine> {
  let id: unknown = null;
  try {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      throw new LineError("bad-line", `line ${lineNumber} is not JSON`);
    }
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      throw new LineError("bad-line", `line ${lineNumber} is not a JSON object`);
    }
    const fields = record as Record<string, unknown>;
    id = fields.id ?? null;
    const target = fields.target ?? options.typeText;
    if (typeof target !== "string")
      throw new LineError("bad-line", `line ${lineNumber} has no "target" type (and no --type)`);
    if (typeof fields.raw !== "string")
      throw new LineError("bad-line", `line ${lineNumber} has no "raw" answer text`);
    if (fields.baml !== undefined && typeof fields.baml !== "string") {
      throw new LineError("bad-line", `line ${lineNumber}: "baml" must be source text`);
    }
    let ir: Ir;
    let type: Type;
    if (typeof fields.baml === "string") {
      // Logged answers usually share a few schemas: compile each (schema, target) pair once.
      const key = `${target}\u0000${fields.baml}`;
      const compiled = schemas.get(key) ?? compileSchema(fields.baml, target);
      schemas.set(key, compiled);
      ir = compiled.ir;
      type = compiled.type;
    } else {
      ir = await projectIr();
      const parsed = parseTypeExpression(target, ir);
      if (!parsed.type) {
        throw new LineError(
          "invalid-type",
          `"${target}" is not a valid type: ${parsed.diagnostics.map((d) => d.message).join("; ")}`,
        );
      }
      type = parsed.type;
    }
    // `"partial": true` on a line (or --partial for all): the raw text is the beginning of a stream.
    const partial = fields.partial === true || options.partial;
    const result = partial
      ? parsePartial(fields.raw, type, ir, { constraintEvaluator: evaluateConstraint })
      : parseValue(fields.raw, type, ir, { constraintEvaluator: evaluateConstraint });
    const line: BatchLine = { id, ok: true, value: result.value, flags: result.flags, error: null };
    if (partial) line.partial = true;
    return line;
  } catch (error) {
    return { id, ok: false, value: null, flags: [], error: describeLineError(error) };
  }
}

function describeLineError(error: unknown): NonNullable<BatchLine["error"]> {
  if (SapParseError.isInstance(error)) return { code: error.code, message: error.message, path: error.path };
  if (SchemaError.isInstance(error))
    return { code: error.code, message: error.diagnostics.map((d) => d.message).join("; ") };
  if (SapConfigurationError.isInstance(error)) return { code: error.code, message: error.message };
  if (error instanceof LineError) return { code: error.code, message: error.message };
  throw error;
}
