import { createDiagnostic, type Diagnostic, hasErrors, sortDiagnostics } from "../diagnostics/index.js";
import type { Ir, TestTypeBuilder } from "../ir/index.js";
import type { TypeBuilderBlock, TypeDeclaration } from "./ast.js";
import { builderTypes, checkTypeBuilder } from "./check-type-builder.js";
import { irExistingTypes } from "./existing-types.js";
import { irTypeScope } from "./ir-type-scope.js";
import { lowerTypeBuilder } from "./lower-type-builder.js";
import { parseSource } from "./parser.js";
import type { Reporter } from "./reporter.js";

/** The file name diagnostics of a `TypeBuilder.addBaml` snippet carry. */
export const typeBuilderSourceFile = "<addBaml>";

/** The result of compiling a type-builder snippet: additions only when there are no errors. */
export interface TypeBuilderSourceResult {
  additions?: TestTypeBuilder;
  diagnostics: Diagnostic[];
}

/**
 * Compile the BAML text given to `TypeBuilder.addBaml` against `ir` (the project's IR, with whatever the
 * builder added so far): the same declarations a test's `type_builder { … }` accepts — new `class`,
 * `enum` and `type` declarations, and `dynamic class` / `dynamic enum` blocks that extend `@@dynamic`
 * ones — checked and lowered by the same code. Anything else (functions, clients, tests…) is an error.
 * Diagnostics point into `source` under the file name `<addBaml>`. Never throws.
 */
export function compileTypeBuilderSource(source: string, ir: Ir): TypeBuilderSourceResult {
  const parsed = parseSource(source, typeBuilderSourceFile);
  const diagnostics = parsed.diagnostics;
  const report: Reporter = (name, args, span, notes = []) =>
    diagnostics.push(createDiagnostic(name, args, { file: typeBuilderSourceFile, span }, notes));
  const declarations: TypeDeclaration[] = [];
  for (const declaration of parsed.file.declarations) {
    if (declaration.kind === "class" || declaration.kind === "enum" || declaration.kind === "type-alias") {
      declarations.push(declaration);
    } else {
      report(
        "invalid-type-builder-entry",
        {},
        { start: declaration.span.start, end: declaration.name.span.end },
        [{ message: "addBaml only adds types; declare functions, clients and tests in baml_src/" }],
      );
    }
  }
  const builder: TypeBuilderBlock = {
    declarations,
    span: { start: 0, end: source.length },
    keywordSpan: { start: 0, end: 0 },
  };
  const existing = irExistingTypes(ir);
  const scope = irTypeScope(ir, builderTypes(builder));
  checkTypeBuilder(builder, existing, scope, report);
  const sorted = sortDiagnostics(diagnostics);
  if (hasErrors(sorted)) return { diagnostics: sorted };
  return { additions: lowerTypeBuilder(builder, existing, scope), diagnostics: sorted };
}
