import { readFile } from "node:fs/promises";
import { dirname, extname, resolve } from "node:path";
import { configValueToPlain, type IrIndex, type Test, type Type } from "../../ir/index.js";
import type { MediaValue } from "../../util/index.js";
import { CliError } from "../cli-context.js";

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
 * A test block's `args { … }` as call arguments: config values become JSON values (`env.NAME` read from the
 * environment), and media parameters written as `{ file "…" }` (relative to the `.baml` file),
 * `{ url "…" }` or `{ base64 "…" media_type "…" }` become media values — also inside lists, maps,
 * classes and unions.
 */
export async function toTestArguments(
  test: Test,
  functionName: string,
  index: IrIndex,
  options: { projectDir: string; env: Record<string, string | undefined> },
): Promise<Record<string, unknown>> {
  const where = `test ${test.name}`;
  const fn = index.getFunction(functionName);
  const baseDir = dirname(resolve(options.projectDir, test.source?.file ?? "."));
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(test.args))
    args[name] = configValueToPlain(value, (variable) => readEnv(variable, options.env, where));
  for (const param of fn.params) {
    if (param.name in args)
      args[param.name] = await toMedia(args[param.name], param.type, index, baseDir, where);
  }
  return args;
}

function readEnv(name: string, env: Record<string, string | undefined>, where: string): string {
  const found = env[name];
  if (found === undefined)
    throw new CliError(`${where} reads env.${name}, which is not set; set it and run again.`);
  return found;
}

async function toMedia(
  value: unknown,
  type: Type,
  index: IrIndex,
  baseDir: string,
  where: string,
): Promise<unknown> {
  if (value === null || value === undefined) return value;
  const again = (item: unknown, itemType: Type) => toMedia(item, itemType, index, baseDir, where);
  switch (type.kind) {
    case "media":
      return readMedia(value, type.name, baseDir, where);
    case "optional":
      return again(value, type.inner);
    case "alias":
      return again(value, index.getAlias(type.name).type);
    case "list":
      return Array.isArray(value) ? Promise.all(value.map((item) => again(item, type.item))) : value;
    case "map":
      if (!isRecord(value)) return value;
      return Object.fromEntries(
        await Promise.all(
          Object.entries(value).map(async ([key, item]) => [key, await again(item, type.value)]),
        ),
      );
    case "class": {
      const declared = index.classes.get(type.name);
      if (!declared || !isRecord(value)) return value;
      const result: Record<string, unknown> = { ...value };
      for (const field of declared.fields)
        if (field.name in result) result[field.name] = await again(result[field.name], field.type);
      return result;
    }
    case "union": {
      const media = type.options.find((option) => option.kind === "media");
      const mediaShaped = isRecord(value) && ("file" in value || "url" in value || "base64" in value);
      return media && mediaShaped ? again(value, media) : value;
    }
    default:
      return value;
  }
}

async function readMedia(value: unknown, kind: MediaValue["type"], baseDir: string, where: string) {
  if (!isRecord(value)) return value;
  const media: MediaValue = { kind: "media", type: kind };
  if (typeof value.url === "string") media.url = value.url;
  else if (typeof value.base64 === "string") media.base64 = value.base64;
  else if (typeof value.file === "string") {
    const path = resolve(baseDir, value.file);
    const bytes = await readFile(path).catch(() => {
      throw new CliError(
        `${where}: cannot read ${kind} file ${path} (paths are relative to the .baml file).`,
      );
    });
    media.base64 = bytes.toString("base64");
    media.mediaType = MIME_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
  } else {
    throw new CliError(`${where}: a ${kind} argument needs file, url or base64 (with media_type).`);
  }
  if (typeof value.media_type === "string") media.mediaType = value.media_type;
  return media;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
