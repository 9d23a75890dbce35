import { type Generator, type Ir, IrIndex } from "../ir/index.js";
import { CodegenError } from "./codegen-error.js";
import { type ImportExtension, importExtensionFor, type ModuleFormat } from "./module-text.js";

/** What every emitter reads: the IR, its index, and the generator's choices. */
export interface GenerationContext {
  ir: Ir;
  index: IrIndex;
  moduleFormat: ModuleFormat;
  /** How relative imports between the generated files end (`import_extension`, or the format's default). */
  importExtension: ImportExtension;
}

/**
 * Names the generated modules declare or import next to the project's own names. A class, enum or alias
 * with one of these names would shadow or clash with them, so generation stops with a message instead.
 */
const reservedTypeNames = new Set([
  "Check",
  "Checked",
  "get_checks",
  "all_succeeded",
  "StreamState",
  "partial_types",
  "types",
  "Image",
  "Audio",
  "Pdf",
  "Video",
  "TypeBuilder",
  "ClientRegistry",
  "Collector",
]);

/** Members of the generated client class; a BAML function with one of these names would hide it. */
const reservedFunctionNames = new Set([
  "stream",
  "request",
  "streamRequest",
  "parse",
  "parseStream",
  "withOptions",
  "constructor",
]);

export function createGenerationContext(ir: Ir, generator: Generator): GenerationContext {
  const collisions: string[] = [];
  for (const declaration of [...ir.classes, ...ir.enums, ...ir.aliases]) {
    if (reservedTypeNames.has(declaration.name)) collisions.push(`type "${declaration.name}"`);
  }
  for (const declaration of ir.functions) {
    if (reservedFunctionNames.has(declaration.name)) collisions.push(`function "${declaration.name}"`);
  }
  if (collisions.length > 0) {
    throw new CodegenError(
      "CODEGEN_NAME_COLLISION",
      `Cannot generate the TypeScript client: ${collisions.join(", ")} ${collisions.length === 1 ? "collides" : "collide"} ` +
        "with a name the generated client declares. Rename it in baml_src/.",
    );
  }
  return {
    ir,
    index: new IrIndex(ir),
    moduleFormat: generator.moduleFormat ?? "esm",
    importExtension: importExtensionFor(generator.moduleFormat ?? "esm", generator.importExtension),
  };
}
