import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import type { IrIndex, LlmFunction, Type } from "../../ir/index.js";
import { isMediaValue, type MediaValue } from "../../util/index.js";
import { CliError } from "../cli-context.js";
import { locateInsideFolder } from "../locate-inside-folder.js";

/** Media types by file extension, for media arguments read from files (and `sapling dev` serving them). */
export const MEDIA_TYPES: Record<string, string> = {
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

/** Where media arguments come from, for file paths and messages. */
export interface MediaSource {
  /** Folder that `{ file "…" }` paths are relative to. */
  baseDir: string;
  /** Names the arguments' origin in messages, e.g. `test ExtractJane` or `--args`. */
  where: string;
  /** Says what `file` paths are relative to, in the "cannot read" message. */
  relativeTo: string;
  /**
   * When set, `{ file "…" }` must name a file inside this folder (symlinks followed): `sapling dev` reads
   * files for requests, so a request must not read `/etc/passwd` or `../../.ssh/id_rsa` into a prompt.
   */
  confineTo?: string;
}

/**
 * Media parameters written as in BAML tests — `{ file "…" }`, `{ url "…" }` or
 * `{ base64 "…" media_type "…" }` — become media values, also inside lists, maps, classes, aliases and
 * unions with a media arm. Other values pass through unchanged.
 */
export async function toMediaArguments(
  args: Record<string, unknown>,
  fn: LlmFunction,
  index: IrIndex,
  source: MediaSource,
): Promise<Record<string, unknown>> {
  const result = { ...args };
  for (const param of fn.params) {
    if (param.name in result)
      result[param.name] = await toMedia(result[param.name], param.type, index, source);
  }
  return result;
}

async function toMedia(value: unknown, type: Type, index: IrIndex, source: MediaSource): Promise<unknown> {
  if (value === null || value === undefined || isMediaValue(value)) return value;
  const again = (item: unknown, itemType: Type) => toMedia(item, itemType, index, source);
  switch (type.kind) {
    case "media":
      return readMedia(value, type.name, source);
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

async function readMedia(value: unknown, kind: MediaValue["type"], source: MediaSource): Promise<unknown> {
  if (!isRecord(value)) return value;
  const media: MediaValue = { kind: "media", type: kind };
  if (typeof value.url === "string") media.url = value.url;
  else if (typeof value.base64 === "string") media.base64 = value.base64;
  else if (typeof value.file === "string") {
    const path = resolve(source.baseDir, value.file);
    if (source.confineTo !== undefined) {
      const located = await locateInsideFolder(source.confineTo, path);
      if (located.where === "outside")
        throw new CliError(
          `${source.where}: the ${kind} file ${JSON.stringify(value.file)} is outside the project folder ` +
            `${source.confineTo}, and only files inside it are read. Move the file into the project, or send ` +
            'the media as {"url": …} or {"base64": …, "media_type": …}.',
        );
    }
    const bytes = await readFile(path).catch(() => {
      throw new CliError(
        `${source.where}: cannot read ${kind} file ${path} (paths are relative to ${source.relativeTo}).`,
      );
    });
    media.base64 = bytes.toString("base64");
    media.mediaType = MEDIA_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
  } else {
    throw new CliError(`${source.where}: a ${kind} argument needs file, url or base64 (with media_type).`);
  }
  if (typeof value.media_type === "string") media.mediaType = value.media_type;
  return media;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
