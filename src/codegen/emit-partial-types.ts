import { type Class, type Field, TOP_LEVEL, type TypeAlias } from "../ir/index.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, byName, jsDoc, RUNTIME_MODULE, relativeModule } from "./module-text.js";
import { renderPartialType } from "./render-partial-type.js";
import { joinMembers, type TypeRenderContext, usedMedia } from "./type-render-context.js";

/**
 * `partial_types.ts`: `StreamState<T>` and the `partial_types` namespace — the shape of each class and
 * alias while a stream is still filling it in (rules in `renderPartialType`). Nullable fields are
 * optional (`name?: T | null`), as in BAML; `@stream.with_state` fields are always present.
 */
export function emitPartialTypes(generation: GenerationContext): string {
  const context: TypeRenderContext = {
    index: generation.index,
    typesPrefix: "types.",
    partialPrefix: "",
    inAliasBody: false,
    used: new Set(),
  };
  const { ir } = generation;
  const declarations = [
    ...byName(ir.classes).map((declaration) => emitClass(declaration, context)),
    ...byName(ir.aliases).map((declaration) => emitAlias(declaration, context)),
  ].join("\n");
  const usesTypes = context.used.has("types");
  const media = usedMedia(context);
  const imports = [
    media.length > 0 ? `import type { ${media.join(", ")} } from "${RUNTIME_MODULE}";\n` : "",
    usesTypes
      ? `import type * as types from "${relativeModule("types", generation.importExtension)}";\n`
      : "",
  ].join("");
  const namespace =
    declarations === ""
      ? "export namespace partial_types {}\n"
      : `export namespace partial_types {\n${indent(declarations)}}\n`;
  return `${banner()}${imports}${imports === "" ? "" : "\n"}${streamState()}\n${namespace}`;
}

function streamState(): string {
  return `/**
 * A \`@stream.with_state\` value during a stream: the value so far and whether it is still to come
 * (\`Pending\`), arriving (\`Incomplete\`) or whole (\`Complete\`).
 */
export interface StreamState<T> {
  value: T;
  state: "Pending" | "Incomplete" | "Complete";
}
`;
}

function emitClass(declaration: Class, context: TypeRenderContext): string {
  const fields = declaration.fields.map((field) => emitField(field, context)).join("");
  const open = declaration.dynamic ? "  [key: string]: any;\n" : "";
  return `${jsDoc(declaration.docs)}export interface ${declaration.name} {\n${fields}${open}}\n`;
}

function emitField(field: Field, context: TypeRenderContext): string {
  const members = renderPartialType(field.type, TOP_LEVEL, context);
  const optional = members.includes("null") ? "?" : "";
  return `${jsDoc(field.docs, "  ")}  ${field.name}${optional}: ${joinMembers(members)};\n`;
}

/** The alias body is printed as needed: nullability is added where the alias is used. */
function emitAlias(declaration: TypeAlias, context: TypeRenderContext): string {
  const members = renderPartialType(
    declaration.type,
    { needed: true, done: false },
    { ...context, inAliasBody: true },
  );
  return `${jsDoc(declaration.docs)}export type ${declaration.name} = ${joinMembers(members)};\n`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
}
