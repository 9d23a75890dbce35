import { CodegenError } from "./codegen-error.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, byName, RUNTIME_MODULE, relativeModule } from "./module-text.js";

/** Members of the runtime's TypeBuilder; a declared type with one of these names cannot get a handle. */
const builderMembers = new Set([
  "string",
  "int",
  "float",
  "bool",
  "null",
  "literalString",
  "literalInt",
  "literalBool",
  "list",
  "map",
  "union",
  "addClass",
  "addEnum",
  "addBaml",
  "addZod",
  "addJsonSchema",
  "classBuilder",
  "enumBuilder",
  "applyTo",
  "reset",
  "constructor",
]);

/**
 * `type_builder.ts`: the runtime's TypeBuilder bound to this project's IR, with one typed handle per
 * declared class and enum (`tb.Person.addProperty(…)`, `tb.Hobby.addValue(…)`). Handles of `@@dynamic`
 * types may be changed; the others serve as references (`tb.Resume.type()`), as in BAML.
 */
export function emitTypeBuilder(generation: GenerationContext): string {
  const { ir } = generation;
  const handles = [
    ...byName(ir.classes).map((declaration) => ({ ...declaration, kind: "class" as const })),
    ...byName(ir.enums).map((declaration) => ({ ...declaration, kind: "enum" as const })),
  ];
  const clashes = handles.filter((handle) => builderMembers.has(handle.name));
  if (clashes.length > 0) {
    throw new CodegenError(
      "CODEGEN_NAME_COLLISION",
      `Cannot generate type_builder.ts: ${clashes.map((handle) => `${handle.kind} "${handle.name}"`).join(", ")} ` +
        "would shadow a TypeBuilder method. Rename it in baml_src/.",
    );
  }
  const usesClass = handles.some((handle) => handle.kind === "class");
  const usesEnum = handles.some((handle) => handle.kind === "enum");
  const runtimeImports = [
    ...(usesClass ? ["type ClassBuilder"] : []),
    ...(usesEnum ? ["type EnumBuilder"] : []),
    "TypeBuilder as RuntimeTypeBuilder",
    "type TypeBuilderOptions",
  ];
  // BAML's type_builder module exports FieldType too (`import { FieldType } from "./baml_client/type_builder"`).
  const getters = handles
    .map((handle) => {
      const builder = handle.kind === "class" ? "ClassBuilder" : "EnumBuilder";
      const method = handle.kind === "class" ? "classBuilder" : "enumBuilder";
      const what = handle.dynamic
        ? `\`@@dynamic ${handle.kind} ${handle.name}\`: ${handle.kind === "class" ? "add or change properties" : "add or change values"} for the calls given this builder.`
        : `\`${handle.kind} ${handle.name}\` (not \`@@dynamic\`): a reference for new types; it cannot be changed.`;
      return `  /** ${what} */\n  get ${handle.name}(): ${builder} {\n    return this.${method}(${JSON.stringify(handle.name)});\n  }\n`;
    })
    .join("\n");
  return `${banner()}import { ${runtimeImports.join(", ")} } from "${RUNTIME_MODULE}";
import { ir } from "${relativeModule("ir", generation.importExtension)}";

export { FieldType } from "${RUNTIME_MODULE}";

/**
 * Changes the schema for one call: \`const tb = new TypeBuilder(); tb.Person.addProperty("age", tb.int());
 * await b.Fn(input, { tb })\`. Other calls keep the declared schema. To add declarations written in BAML
 * (\`tb.addBaml("dynamic class Person {\\n  age int\\n}")\`), pass the compiler, which the runtime leaves
 * out of the call path: \`new TypeBuilder({ compileBaml: typeBuilderCompiler })\`, importing
 * \`typeBuilderCompiler\` from "sapling-llm".
 */
export class TypeBuilder extends RuntimeTypeBuilder {
  constructor(options: TypeBuilderOptions = {}) {
    super(ir, options);
  }
${getters === "" ? "" : `\n${getters}`}}

export default TypeBuilder;
`;
}
