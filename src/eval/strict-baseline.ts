/**
 * The baseline columns: what a pipeline without Schema-Aligned Parsing would have made of the same
 * recorded answers. `strict`: `JSON.parse` of the whole answer, then validation against the return type
 * (no coercion: a string where an int belongs fails). `repaired`: the first fenced block (or the whole
 * answer), then a JSON repair function (jsonrepair, passed in by the caller), then the same validation.
 * Comparing them with Sapling's own column shows what the parser contributes.
 */
import type { IrIndex, Type } from "../ir/index.js";

/** A baseline's reading of one answer: a value of the return type, or `undefined` when it failed. */
export type BaselineReading = { ok: true; value: unknown } | { ok: false; reason: string };

/** Repairs JSON text (jsonrepair's signature); throws when it cannot. */
export type JsonRepair = (text: string) => string;

export interface BaselineOptions {
  /**
   * The answer is a `{"value": …}` wrapper (tools and native modes wrap a root that is not an object,
   * docs/decisions/0013): the baseline unwraps it as the runtime does.
   */
  wrapped: boolean;
}

/** `JSON.parse` + schema validation, no repair. */
export function strictBaseline(
  index: IrIndex,
  type: Type,
  answer: string,
  options: BaselineOptions,
): BaselineReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  return validateStrict(index, type, unwrap(parsed, options), "$");
}

/** The first fenced block (or the answer) through `repair`, then schema validation. */
export function repairedBaseline(
  index: IrIndex,
  type: Type,
  answer: string,
  repair: JsonRepair,
  options: BaselineOptions,
): BaselineReading {
  const fence = /```[a-zA-Z0-9_-]*[ \t]*\r?\n([\s\S]*?)(?:```|$)/.exec(answer);
  const text = fence ? (fence[1] as string) : answer;
  let parsed: unknown;
  try {
    parsed = JSON.parse(repair(text));
  } catch {
    return { ok: false, reason: "not JSON after repair" };
  }
  return validateStrict(index, type, unwrap(parsed, options), "$");
}

function unwrap(value: unknown, options: BaselineOptions): unknown {
  return options.wrapped && isRecord(value) && "value" in value ? value.value : value;
}

/**
 * Checks a JSON value against a type without coercion and returns it with declared names (a field's
 * `@alias` key becomes its name, an enum value's alias its name), as Sapling's value would have them.
 * Extra keys are allowed, as a JSON Schema without `additionalProperties: false` allows them.
 */
export function validateStrict(index: IrIndex, type: Type, value: unknown, path: string): BaselineReading {
  const fail = (expected: string): BaselineReading => ({
    ok: false,
    reason: `${path}: expected ${expected}, found ${value === null ? "null" : Array.isArray(value) ? "a list" : typeof value}`,
  });
  switch (type.kind) {
    case "primitive":
      switch (type.name) {
        case "string":
          return typeof value === "string" ? { ok: true, value } : fail("a string");
        case "int":
          return Number.isInteger(value) ? { ok: true, value } : fail("an int");
        case "float":
          return typeof value === "number" ? { ok: true, value } : fail("a number");
        case "bool":
          return typeof value === "boolean" ? { ok: true, value } : fail("true or false");
        default:
          return value === null ? { ok: true, value } : fail("null");
      }
    case "literal":
      return value === type.value ? { ok: true, value } : fail(JSON.stringify(type.value));
    case "enum": {
      const match = index
        .getEnum(type.name)
        .values.find((candidate) => !candidate.skip && (candidate.alias ?? candidate.name) === value);
      return match ? { ok: true, value: match.name } : fail(`a value of ${type.name}`);
    }
    case "optional":
      return value === null || value === undefined
        ? { ok: true, value: null }
        : validateStrict(index, type.inner, value, path);
    case "alias": {
      const target = index.aliases.get(type.name);
      return target ? validateStrict(index, target.type, value, path) : fail(type.name);
    }
    case "list": {
      if (!Array.isArray(value)) return fail("a list");
      const items: unknown[] = [];
      for (const [position, item] of value.entries()) {
        const reading = validateStrict(index, type.item, item, `${path}[${position}]`);
        if (!reading.ok) return reading;
        items.push(reading.value);
      }
      return { ok: true, value: items };
    }
    case "map": {
      if (!isRecord(value)) return fail("an object");
      const entries: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const reading = validateStrict(index, type.value, item, `${path}.${key}`);
        if (!reading.ok) return reading;
        entries[key] = reading.value;
      }
      return { ok: true, value: entries };
    }
    case "class": {
      if (!isRecord(value)) return fail(`an object (${type.name})`);
      const result: Record<string, unknown> = {};
      for (const field of index.getClass(type.name).fields) {
        if (field.skip) continue;
        const key = field.alias ?? field.name;
        const present = Object.hasOwn(value, key);
        if (!present && field.type.kind !== "optional")
          return { ok: false, reason: `${path}.${key}: missing` };
        const reading = validateStrict(index, field.type, present ? value[key] : null, `${path}.${key}`);
        if (!reading.ok) return reading;
        result[field.name] = reading.value;
      }
      return { ok: true, value: result };
    }
    case "union":
      for (const option of type.options) {
        const reading = validateStrict(index, option, value, path);
        if (reading.ok) return reading;
      }
      return fail("one of the union's types");
    case "media":
      return { ok: true, value };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
