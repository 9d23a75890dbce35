import type { Ir } from "../ir/index.js";
import { CliError } from "./cli-context.js";
import { didYouMean } from "./did-you-mean.js";

/** "The project has no function X", with the closest name when there is one, then every name. */
export function unknownFunction(name: string, ir: Ir): CliError {
  const names = ir.functions.map((fn) => fn.name);
  const suggestion = didYouMean(name, names);
  const list = `(functions: ${names.join(", ") || "none"})`;
  return new CliError(
    suggestion
      ? `the project has no function ${name}. Did you mean ${suggestion}? ${list}`
      : `the project has no function ${name} ${list}.`,
  );
}
