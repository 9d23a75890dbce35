import type { Ir } from "../ir/index.js";
import { stableStringify } from "../util/index.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, byName } from "./module-text.js";

/**
 * `ir.ts`: the project's IR as data, which the runtime interprets (the compiler is never shipped into
 * the application). Declarations are sorted by name and object keys are sorted, so the text depends only on
 * the project; `tests` and `generators` are left out because nothing at run time reads them.
 */
export function emitIr(generation: GenerationContext): string {
  const { ir } = generation;
  const embedded: Ir = {
    version: ir.version,
    classes: byName(ir.classes),
    enums: byName(ir.enums),
    aliases: byName(ir.aliases),
    functions: byName(ir.functions),
    clients: byName(ir.clients),
    retryPolicies: byName(ir.retryPolicies),
    templateStrings: byName(ir.templateStrings),
    generators: [],
    tests: [],
  };
  return `${banner()}/** The project's IR (version ${ir.version}), read by the runtime; see \`sapling-llm/runtime\`. */
export const ir: unknown = ${stableStringify(embedded, 2)};
`;
}
