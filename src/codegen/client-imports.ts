import type { GenerationContext } from "./generation-context.js";
import { RUNTIME_MODULE, relativeModule } from "./module-text.js";

const mediaNames = ["Audio", "Image", "Pdf", "Video"];

/**
 * Import lines for a client module with exactly the names its text uses (an unused import would fail
 * `noUnusedLocals` in an application's build): runtime values and types, media classes, `types`,
 * `partial_types` / `StreamState`, and local modules.
 */
export function clientImports(
  generation: GenerationContext,
  imports: { runtimeValues?: string[]; runtimeTypes?: string[]; uses: Set<string>[]; local?: string[] },
): string {
  const uses = new Set(imports.uses.flatMap((set) => [...set]));
  const runtime = [
    ...(imports.runtimeValues ?? []).map((name) => ({ name, text: name })),
    ...[...(imports.runtimeTypes ?? []), ...mediaNames.filter((name) => uses.has(name))].map((name) => ({
      name,
      text: `type ${name}`,
    })),
  ].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const lines: string[] = [];
  if (runtime.length > 0 && (imports.runtimeValues ?? []).length === 0) {
    lines.push(`import type { ${runtime.map((entry) => entry.name).join(", ")} } from "${RUNTIME_MODULE}";`);
  } else if (runtime.length > 0) {
    lines.push(`import { ${runtime.map((entry) => entry.text).join(", ")} } from "${RUNTIME_MODULE}";`);
  }
  const partialNames = ["partial_types", "StreamState"].filter((name) => uses.has(name));
  if (partialNames.length > 0) {
    const from = relativeModule("partial_types", generation.importExtension);
    lines.push(`import type { ${partialNames.join(", ")} } from "${from}";`);
  }
  if (uses.has("types")) {
    lines.push(`import type * as types from "${relativeModule("types", generation.importExtension)}";`);
  }
  lines.push(...(imports.local ?? []));
  return `${lines.join("\n")}\n`;
}
