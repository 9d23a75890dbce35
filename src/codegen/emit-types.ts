import type { Class, Enum, Field, TypeAlias } from "../ir/index.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, byName, jsDoc, RUNTIME_MODULE } from "./module-text.js";
import { renderFinalType } from "./render-final-type.js";
import { joinMembers, type TypeRenderContext, usedMedia } from "./type-render-context.js";

/**
 * `types.ts`: one string enum per enum, one interface per class, one type alias per alias, and the
 * `Checked`/`Check` shapes of `@check` results. Optional fields are `name?: T | null` as in BAML, so an
 * input object may leave them out; a `@@dynamic` class also admits the extra keys a TypeBuilder adds.
 */
export function emitTypes(generation: GenerationContext): string {
  const context: TypeRenderContext = {
    index: generation.index,
    typesPrefix: "",
    partialPrefix: "partial_types.",
    inAliasBody: false,
    used: new Set(),
  };
  const { ir } = generation;
  const body = [
    checkedDeclarations(),
    ...byName(ir.enums).map(emitEnum),
    ...byName(ir.classes).map((declaration) => emitClass(declaration, context)),
    ...byName(ir.aliases).map((declaration) => emitAlias(declaration, context)),
  ].join("\n");
  const media = usedMedia(context);
  const imports = media.length > 0 ? `import type { ${media.join(", ")} } from "${RUNTIME_MODULE}";\n\n` : "";
  return `${banner()}${imports}${body}`;
}

function checkedDeclarations(): string {
  return `/** The outcome of one \`@check\`: its label, its expression, and whether the value passed. */
export interface Check {
  name: string;
  expr: string;
  status: "succeeded" | "failed";
}

/** A value with \`@check\`s: the value itself and each check's outcome, keyed by label. */
export interface Checked<T, CheckName extends string = string> {
  value: T;
  checks: Record<CheckName, Check>;
}

/** The outcomes of a \`Checked\` value's checks, as a list. */
export function get_checks<CheckName extends string>(checks: Record<CheckName, Check>): Check[] {
  return Object.values<Check>(checks);
}

/** Whether every check passed. */
export function all_succeeded<CheckName extends string>(checks: Record<CheckName, Check>): boolean {
  return get_checks(checks).every((check) => check.status === "succeeded");
}
`;
}

function emitEnum(declaration: Enum): string {
  const values = declaration.values
    .map((value) => `${jsDoc(value.docs, "  ")}  ${value.name} = ${JSON.stringify(value.name)},\n`)
    .join("");
  return `${jsDoc(declaration.docs)}export enum ${declaration.name} {\n${values}}\n`;
}

function emitClass(declaration: Class, context: TypeRenderContext): string {
  const fields = declaration.fields.map((field) => emitField(field, context)).join("");
  // `any`, as in BAML: fields a TypeBuilder adds are read as `result.added` by existing application code.
  const open = declaration.dynamic ? "  [key: string]: any;\n" : "";
  return `${jsDoc(declaration.docs)}export interface ${declaration.name} {\n${fields}${open}}\n`;
}

function emitField(field: Field, context: TypeRenderContext): string {
  const members = renderFinalType(field.type, context);
  const optional = members.includes("null") ? "?" : "";
  return `${jsDoc(field.docs, "  ")}  ${field.name}${optional}: ${joinMembers(members)};\n`;
}

function emitAlias(declaration: TypeAlias, context: TypeRenderContext): string {
  const members = renderFinalType(declaration.type, { ...context, inAliasBody: true });
  return `${jsDoc(declaration.docs)}export type ${declaration.name} = ${joinMembers(members)};\n`;
}
