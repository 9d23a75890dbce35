import { createDiagnostic, type Diagnostic, hasErrors } from "../diagnostics/index.js";
import type { Ir, Type } from "../ir/index.js";
import { checkTypeExpression } from "./check-type-expression.js";
import { irTypeScope } from "./ir-type-scope.js";
import { lowerType } from "./lower-type.js";
import { parseType } from "./parse-type.js";
import { TokenStream } from "./token-stream.js";

/** The file name diagnostics of a standalone type expression carry. */
export const typeExpressionFile = "<type>";

/**
 * Parse a BAML type expression (`Resume[]`, `map<string, int>`, `"a" | "b"`) against the classes, enums
 * and aliases of an IR — the `--type` of `sapling parse` and `sapling render`. Diagnostics point into
 * `text` under the file name `<type>`.
 */
export function parseTypeExpression(text: string, ir: Ir): { type?: Type; diagnostics: Diagnostic[] } {
  const stream = new TokenStream(text, typeExpressionFile);
  const { type } = parseType(stream);
  if (!stream.at("eof")) stream.reportUnexpected("the end of the type");
  const diagnostics = stream.diagnostics;
  const scope = irTypeScope(ir);
  checkTypeExpression(type, scope, (name, args, span, notes) =>
    diagnostics.push(createDiagnostic(name, args, { file: typeExpressionFile, span }, notes)),
  );
  if (hasErrors(diagnostics)) return { diagnostics };
  return { type: lowerType(type, scope), diagnostics };
}
