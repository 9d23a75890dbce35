import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import type { LlmFunction, Type } from "../../ir/index.js";
import { isMediaValue, type MediaValue } from "../../util/index.js";
import { type CliContext, CliError } from "../cli-context.js";

/** `--args`: inline JSON, `@FILE`, or `-` for standard input; must be a JSON object. */
export async function readRenderArguments(
  option: string | undefined,
  context: CliContext,
): Promise<Record<string, unknown>> {
  if (option === undefined) return {};
  let text = option;
  if (option === "-") text = await context.readStdin();
  else if (option.startsWith("@")) {
    const path = resolve(context.cwd, option.slice(1));
    text = await readFile(path, "utf8").catch(() => {
      throw new CliError(`cannot read --args file ${option.slice(1)}.`);
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError('--args must be a JSON object keyed by parameter name, e.g. {"resume": "…"}.');
  }
  return parsed as Record<string, unknown>;
}

const MIME_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
};

/**
 * Media parameters may be written as in BAML tests: `{"url": "…"}`, `{"base64": "…", "media_type": "…"}`
 * or `{"file": "photo.png"}` (read relative to the current folder). They become media values.
 */
export async function toMediaArguments(
  args: Record<string, unknown>,
  fn: LlmFunction,
  context: CliContext,
): Promise<Record<string, unknown>> {
  const result = { ...args };
  for (const param of fn.params) {
    if (param.name in result) result[param.name] = await convert(result[param.name], param.type, context);
  }
  return result;
}

async function convert(value: unknown, type: Type, context: CliContext): Promise<unknown> {
  if (type.kind === "optional") return convert(value, type.inner, context);
  if (type.kind === "list" && Array.isArray(value))
    return Promise.all(value.map((item) => convert(item, type.item, context)));
  if (type.kind !== "media" || typeof value !== "object" || value === null || isMediaValue(value))
    return value;
  const spec = value as { url?: unknown; base64?: unknown; media_type?: unknown; file?: unknown };
  const media: MediaValue = { kind: "media", type: type.name };
  if (typeof spec.url === "string") media.url = spec.url;
  else if (typeof spec.base64 === "string") media.base64 = spec.base64;
  else if (typeof spec.file === "string") {
    const path = resolve(context.cwd, spec.file);
    const bytes = await readFile(path).catch(() => {
      throw new CliError(`cannot read media file ${spec.file}.`);
    });
    media.base64 = bytes.toString("base64");
    media.mediaType = MIME_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
  } else {
    throw new CliError(`a ${type.name} argument needs "url", "base64" (with "media_type") or "file".`);
  }
  if (typeof spec.media_type === "string") media.mediaType = spec.media_type;
  return media;
}
