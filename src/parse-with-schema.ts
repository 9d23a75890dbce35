import { type Diagnostic, hasErrors } from "./diagnostics/index.js";
import type { Ir, Type } from "./ir/index.js";
import { compile, parseTypeExpression, renderDiagnostics } from "./language/index.js";
import { evaluateConstraint } from "./prompt/index.js";
import { type ParseOptions, type ParseResult, parseValue } from "./sap/index.js";
import { hasErrorMark, markError } from "./util/index.js";

/**
 * The BAML source or the type expression given to `parseWithSchema` does not compile. Carries the
 * diagnostics; the message renders them with code frames.
 */
export class SchemaError extends Error {
  readonly code: "invalid-schema" | "invalid-type";
  readonly diagnostics: Diagnostic[];

  constructor(code: SchemaError["code"], diagnostics: Diagnostic[], sources: Record<string, string>) {
    const what =
      code === "invalid-schema" ? "The BAML source has errors" : "The type expression is not valid";
    super(`${what}; fix them and try again:\n${renderDiagnostics(diagnostics, sources)}`);
    this.name = "SchemaError";
    this.code = code;
    this.diagnostics = diagnostics;
    markError(this, "SchemaError");
  }

  static isInstance(value: unknown): value is SchemaError {
    return hasErrorMark(value, "SchemaError");
  }
}

/** A compiled schema and a type in it, ready for `parseValue` (compile once, parse many answers). */
export interface CompiledSchema {
  ir: Ir;
  type: Type;
}

/**
 * Compile BAML source (one text, or file path → text) and a type expression against it. Throws
 * `SchemaError` with the diagnostics when either has errors.
 */
export function compileSchema(
  bamlSource: string | Record<string, string>,
  typeExpression: string,
): CompiledSchema {
  const sources = typeof bamlSource === "string" ? { "schema.baml": bamlSource } : bamlSource;
  const { ir, diagnostics } = compile(sources);
  if (!ir || hasErrors(diagnostics)) throw new SchemaError("invalid-schema", diagnostics, sources);
  const parsed = parseTypeExpression(typeExpression, ir);
  if (!parsed.type) throw new SchemaError("invalid-type", parsed.diagnostics, { "<type>": typeExpression });
  return { ir, type: parsed.type };
}

/**
 * Parse a model's answer straight from a BAML snippet and a type expression — no project, no codegen:
 * `parseWithSchema('enum Mood {\n  HAPPY\n  SAD\n}', "Mood[]", answer)`. `@check`/`@assert` use the prompt
 * room's Jinja evaluator unless `options.constraintEvaluator` is given. Throws `SchemaError` for a broken
 * schema or type, `SapParseError` when the answer does not hold a value of the type.
 */
export function parseWithSchema(
  bamlSource: string | Record<string, string>,
  typeExpression: string,
  text: string,
  options: ParseOptions = {},
): ParseResult {
  const { ir, type } = compileSchema(bamlSource, typeExpression);
  return parseValue(text, type, ir, { constraintEvaluator: evaluateConstraint, ...options });
}
