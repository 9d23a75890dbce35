import type { ConfigValue, ParameterDecl } from "./ast.js";
import type { Reporter } from "./reporter.js";
import { mediaNames, ungroup } from "./resolve-type.js";

const sources = ["file", "url", "base64"];

/**
 * A test argument for a media parameter must say where the media comes from: `{ file "…" }`,
 * `{ url "…" }` or `{ base64 "…" media_type "…" }`, exactly one source. Values may be unquoted
 * (`url https://…`), as BAML reads them. A plain value instead of a `{ … }` block is only a warning, as in
 * BAML: the project compiles, the test cannot load the media.
 */
export function checkMediaArgument(param: ParameterDecl, value: ConfigValue, report: Reporter): void {
  const media = mediaOf(param);
  if (media === undefined || value.kind === "error" || value.kind === "null" || value.kind === "env") return;
  const name = param.name.name;
  if (value.kind !== "map") {
    report("media-argument-not-a-source", { name, media }, value.span);
    return;
  }
  const keys = value.block.entries.map((entry) => entry.key.name);
  const given = keys.filter((key) => sources.includes(key));
  const unknown = keys.filter((key) => !sources.includes(key) && key !== "media_type");
  let problem: string | undefined;
  if (unknown.length > 0) problem = `"${unknown[0]}" is not a media source`;
  else if (given.length !== 1)
    problem = given.length === 0 ? "no source is given" : "it gives more than one source";
  else if (value.block.entries.some((entry) => !isText(entry.value))) problem = "its values must be text";
  if (problem !== undefined) report("invalid-media-argument", { name, media, problem }, value.span);
}

/** Quoted, raw or unquoted text (an unquoted base64 or URL may also read as a number or `true`). */
function isText(value: ConfigValue): boolean {
  return (
    value.kind === "string" ||
    value.kind === "raw-string" ||
    value.kind === "unquoted" ||
    value.kind === "number" ||
    value.kind === "env"
  );
}

/** The media type of a parameter (`image`, `pdf?`), or `undefined` for other types. */
function mediaOf(param: ParameterDecl): string | undefined {
  let type = ungroup(param.type);
  if (type.kind === "optional") type = ungroup(type.inner);
  return type.kind === "named" && mediaNames.has(type.name) ? type.name : undefined;
}
