import { suggestName } from "../diagnostics/index.js";
import type { TypeBuilderBlock, TypeDeclaration } from "./ast.js";
import { type ProjectSymbols, suggestion } from "./check-context.js";
import { checkTypeDeclaration } from "./check-type-declarations.js";
import { projectScope } from "./project-scope.js";
import type { Reporter } from "./reporter.js";
import { resolveDynamicKind } from "./resolve-dynamic-kind.js";

/** New (non-dynamic) declarations of a type_builder, by name. */
export function builderTypes(builder: TypeBuilderBlock | undefined): Map<string, TypeDeclaration> {
  const types = new Map<string, TypeDeclaration>();
  for (const declaration of builder?.declarations ?? []) {
    if ((declaration.kind === "type-alias" || !declaration.dynamic) && !types.has(declaration.name.name)) {
      types.set(declaration.name.name, declaration);
    }
  }
  return types;
}

/**
 * A test's type_builder: new declarations must not reuse project names; `dynamic` ones must extend an
 * existing `@@dynamic` class or enum of the same kind.
 */
export function checkTypeBuilder(builder: TypeBuilderBlock, symbols: ProjectSymbols, report: Reporter): void {
  const local = builderTypes(builder);
  const scope = projectScope(symbols, local);
  const seen = new Map<string, TypeDeclaration>();
  for (const written of builder.declarations) {
    const declaration = written.kind === "type-alias" ? written : resolveDynamicKind(written, symbols);
    const name = declaration.name.name;
    const dynamic = declaration.kind !== "type-alias" && declaration.dynamic;
    const key = `${dynamic ? "dynamic " : ""}${name}`;
    const first = seen.get(key);
    if (first) {
      report("duplicate-declaration", { name, kind: "type" }, declaration.name.span, [
        { message: "first declared here", span: first.name.span },
      ]);
    }
    seen.set(key, declaration);
    if (dynamic) {
      const target = symbols.types.get(name)?.node;
      if (target && target.kind !== "type-alias" && target.kind !== declaration.kind) {
        const [targetKind, adds] =
          target.kind === "class" ? ["a class", "enum values"] : ["an enum", "class fields"];
        report("dynamic-kind-mismatch", { name, target: targetKind, adds }, declaration.name.span);
      } else if (!target || target.kind !== declaration.kind) {
        const candidates = [...symbols.types.values()]
          .filter((type) => type.node.kind === declaration.kind)
          .map((type) => type.node.name.name);
        report("unknown-type", { name, ...suggestion(suggestName(name, candidates)) }, declaration.name.span);
      } else if (!target.attributes.some((attribute) => attribute.block && attribute.name === "dynamic")) {
        report(
          "not-dynamic",
          { name, kind: declaration.kind === "class" ? "Class" : "Enum" },
          declaration.name.span,
        );
      }
    } else {
      const existing = symbols.types.get(name);
      if (existing) {
        report("duplicate-declaration", { name, kind: "type" }, declaration.name.span, [
          {
            message: "already declared in the project; extend it with `dynamic` instead",
            file: existing.file,
            span: existing.node.name.span,
          },
        ]);
      }
    }
    checkTypeDeclaration(declaration, scope, report, true);
  }
}
