import { suggestName } from "../diagnostics/index.js";
import type { GeneratorDecl } from "./ast.js";
import { checkAttributes } from "./check-attributes.js";
import { suggestion } from "./check-context.js";
import { entriesByKey, reportInvalidValue, textOf } from "./config-values.js";
import type { Reporter } from "./reporter.js";

export const outputTypes = [
  "typescript",
  "typescript/react",
  "python/pydantic",
  "python/pydantic/v1",
  "ruby/sorbet",
  "go",
  "rust",
  "rest/openapi",
];

/** The output types Sapling generates; the others are BAML's generators for other languages (W0604). */
const generatedOutputTypes = new Set(["typescript", "typescript/react"]);

/** Fields with a closed set of values; the others take any string. */
const choices: Record<string, string[]> = {
  output_type: outputTypes,
  module_format: ["esm", "cjs"],
  default_client_mode: ["async", "sync"],
  // Sapling's addition (BAML has no such field): "ts" writes `./types.ts`, which Deno resolves.
  import_extension: ["js", "ts"],
};
const fields = [
  "output_type",
  "output_dir",
  "version",
  "module_format",
  "default_client_mode",
  "on_generate",
  "client_package_name",
  "import_extension",
];

/** Check a generator: known fields with string values, valid choices, an output_type. */
export function checkGenerator(declaration: GeneratorDecl, report: Reporter): void {
  checkAttributes(declaration.body.attributes, "config", report);
  const entries = entriesByKey(declaration.body, report);
  for (const entry of entries.values()) {
    if (!fields.includes(entry.key.name)) {
      report(
        "invalid-generator-field",
        { name: entry.key.name, ...suggestion(suggestName(entry.key.name, fields)) },
        entry.key.span,
      );
      continue;
    }
    const value = textOf(entry.value);
    if (value === undefined) {
      reportInvalidValue(entry, "a string", report);
      continue;
    }
    const allowed = choices[entry.key.name];
    if (allowed && !allowed.includes(value)) {
      report(
        "invalid-generator-value",
        {
          field: entry.key.name,
          found: value,
          allowed: allowed.join(", "),
          ...suggestion(suggestName(value, allowed)),
        },
        entry.value.span,
      );
    } else if (entry.key.name === "output_type" && !generatedOutputTypes.has(value)) {
      report("unsupported-output-type", { found: value }, entry.value.span);
    }
  }
  if (!entries.has("output_type")) {
    report(
      "missing-generator-field",
      { name: declaration.name.name, field: "output_type" },
      declaration.name.span,
    );
  }
}
