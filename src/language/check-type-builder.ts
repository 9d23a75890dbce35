import { suggestName } from "../diagnostics/index.js";
import type { TypeBuilderBlock, TypeDeclaration } from "./ast.js";
import { suggestion } from "./check-context.js";
import { checkTypeDeclaration } from "./check-type-declarations.js";
import type { ExistingTypes } from "./existing-types.js";
import type { Reporter } from "./reporter.js";
import { resolveDynamicKind } from "./resolve-dynamic-kind.js";
import type { TypeScope } from "./resolve-type.js";

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
 * A type_builder (a test's block, or a `TypeBuilder.addBaml` snippet): new declarations must not reuse
 * existing names; `dynamic` ones must extend an existing `@@dynamic` class or enum of the same kind.
 * `scope` sees the existing types and the builder's new ones.
 */
export function checkTypeBuilder(
  builder: TypeBuilderBlock,
  existing: ExistingTypes,
  scope: TypeScope,
  report: Reporter,
): void {
  const seen = new Map<string, TypeDeclaration>();
  for (const written of builder.declarations) {
    const declaration = written.kind === "type-alias" ? written : resolveDynamicKind(written, existing);
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
    const target = existing.find(name);
    if (dynamic) {
      if (target && target.kind !== "type-alias" && target.kind !== declaration.kind) {
        const [targetKind, adds] =
          target.kind === "class" ? ["a class", "enum values"] : ["an enum", "class fields"];
        report("dynamic-kind-mismatch", { name, target: targetKind, adds }, declaration.name.span);
      } else if (!target || target.kind !== declaration.kind) {
        const candidates = [...existing.names()].filter(
          (candidate) => existing.find(candidate)?.kind === declaration.kind,
        );
        report("unknown-type", { name, ...suggestion(suggestName(name, candidates)) }, declaration.name.span);
      } else if (!target.dynamic) {
        report(
          "not-dynamic",
          { name, kind: declaration.kind === "class" ? "Class" : "Enum" },
          declaration.name.span,
        );
      }
    } else if (target) {
      report("duplicate-declaration", { name, kind: "type" }, declaration.name.span, [target.declaredAt]);
    }
    checkTypeDeclaration(declaration, scope, report, true);
  }
}
