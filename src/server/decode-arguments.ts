import type { IrIndex, LlmFunction, Type } from "../ir/index.js";
import { isMediaValue, type MediaValue } from "../util/index.js";
import { HttpError } from "./error-response.js";

/**
 * JSON arguments → runtime arguments. JSON has no media values, so a media parameter (or a media value
 * nested in a list, map, class or union) arrives as `{ "url": "…" }` or `{ "base64": "…", "media_type": "…" }`
 * and becomes the runtime's media value here. Everything else passes through; the runtime validates it.
 */
export function decodeArguments(
  fn: LlmFunction,
  body: Record<string, unknown>,
  index: IrIndex,
): Record<string, unknown> {
  const args: Record<string, unknown> = { ...body };
  for (const param of fn.params) {
    if (param.name in args) args[param.name] = decode(args[param.name], param.type, index, param.name, 0);
  }
  return args;
}

/** Deep enough for any real schema; stops a recursive alias walking a hostile, deeply nested body. */
const MAX_DEPTH = 64;

function decode(value: unknown, type: Type, index: IrIndex, path: string, depth: number): unknown {
  if (value === null || value === undefined || depth > MAX_DEPTH) return value;
  switch (type.kind) {
    case "media":
      return toMedia(value, type.name, path);
    case "optional":
      return decode(value, type.inner, index, path, depth + 1);
    case "alias":
      return decode(value, index.getAlias(type.name).type, index, path, depth + 1);
    case "list":
      return Array.isArray(value)
        ? value.map((item, position) => decode(item, type.item, index, `${path}[${position}]`, depth + 1))
        : value;
    case "map": {
      if (!isRecord(value)) return value;
      // fromEntries defines each key as data: assigning `result["__proto__"]` would replace the map's
      // prototype instead, hiding the entry from the type check and the prompt.
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          decode(item, type.value, index, `${path}[${JSON.stringify(key)}]`, depth + 1),
        ]),
      );
    }
    case "class": {
      const declared = index.classes.get(type.name);
      if (!declared || !isRecord(value)) return value;
      const result: Record<string, unknown> = { ...value };
      for (const field of declared.fields) {
        if (field.name in result)
          result[field.name] = decode(
            result[field.name],
            field.type,
            index,
            `${path}.${field.name}`,
            depth + 1,
          );
      }
      return result;
    }
    case "union": {
      // A media-shaped object in a union with a media arm is that media; anything else is left as sent.
      const media = type.options.find((option) => option.kind === "media");
      if (media?.kind === "media" && isRecord(value) && ("url" in value || "base64" in value))
        return toMedia(value, media.name, path);
      return value;
    }
    default:
      return value;
  }
}

function toMedia(value: unknown, kind: MediaValue["type"], path: string): unknown {
  if (isMediaValue(value) || !isRecord(value)) return value;
  const mediaType = typeof value.media_type === "string" ? { mediaType: value.media_type } : {};
  if (typeof value.url === "string") return { kind: "media", type: kind, url: value.url, ...mediaType };
  if (typeof value.base64 === "string") {
    if (!mediaType.mediaType)
      throw new HttpError(
        400,
        "INVALID_ARGUMENT",
        `Argument ${path}: base64 ${kind} data needs "media_type".`,
      );
    return { kind: "media", type: kind, base64: value.base64, ...mediaType };
  }
  throw new HttpError(
    400,
    "INVALID_ARGUMENT",
    `Argument ${path}: a ${kind} is {"url": "…"} or {"base64": "…", "media_type": "…"}.`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
