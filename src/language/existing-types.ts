import type { DiagnosticNote } from "../diagnostics/index.js";
import type { Ir, SourceLocation } from "../ir/index.js";
import type { ProjectSymbols } from "./check-context.js";

/** A declared class, enum or alias, as far as a type_builder needs to know it. */
export interface ExistingType {
  kind: "class" | "enum" | "type-alias";
  /** Whether it carries `@@dynamic` (only then may a `dynamic` block extend it). */
  dynamic: boolean;
  /** Where it is declared, for the note of a redeclaration. */
  declaredAt: DiagnosticNote;
}

/**
 * The types a type_builder extends or must not redeclare: a project's declarations (a test's
 * type_builder, checked with the AST at hand) or an IR's (`TypeBuilder.addBaml`, checked at call time).
 */
export interface ExistingTypes {
  find(name: string): ExistingType | undefined;
  names(): Iterable<string>;
}

const redeclaredNote = "already declared in the project; extend it with `dynamic` instead";

/** The types of a checked project, with their declaration spans. */
export function projectExistingTypes(symbols: ProjectSymbols): ExistingTypes {
  return {
    find: (name) => {
      const symbol = symbols.types.get(name);
      if (!symbol) return undefined;
      const node = symbol.node;
      return {
        kind: node.kind,
        dynamic:
          node.kind !== "type-alias" &&
          node.attributes.some((attribute) => attribute.block && attribute.name === "dynamic"),
        declaredAt: { message: redeclaredNote, file: symbol.file, span: node.name.span },
      };
    },
    names: () => symbols.types.keys(),
  };
}

/**
 * The types of an IR. The IR keeps line and column but no source text, so the note names the place
 * instead of showing a code frame.
 */
export function irExistingTypes(ir: Ir): ExistingTypes {
  const types = new Map<string, ExistingType>();
  const add = (
    name: string,
    kind: ExistingType["kind"],
    dynamic: boolean,
    source: SourceLocation | undefined,
  ): void => {
    const place = source ? ` (${source.file}:${source.line}:${source.column})` : "";
    types.set(name, {
      kind,
      dynamic,
      declaredAt: { message: `already declared${place}; extend it with \`dynamic\` instead` },
    });
  };
  for (const item of ir.aliases) add(item.name, "type-alias", false, item.source);
  for (const item of ir.enums) add(item.name, "enum", item.dynamic, item.source);
  for (const item of ir.classes) add(item.name, "class", item.dynamic, item.source);
  return { find: (name) => types.get(name), names: () => types.keys() };
}
