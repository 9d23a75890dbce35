import type { Ir, IrIndex, Type } from "../../ir/index.js";
import { childPath } from "../coerce/coerce-result.js";
import { indexOf } from "./index-of.js";
import { type PartialType, partialClassFields, partialTypeOfAlias } from "./partial-type.js";

/** A `@stream.with_state` value's states, in the order a stream moves through them. */
export const STREAM_STATES: readonly string[] = ["Pending", "Incomplete", "Complete"];

/**
 * Whether `value` has the shape of `partial` (a partial type from `partialType`): `undefined` when it
 * does, else where and why not (`$.items[2].qty: expected a whole int, found "1"`). For tests and for
 * users who validate what a stream hands out.
 */
export function checkPartialValue(
  value: unknown,
  partial: PartialType,
  ir: Ir | IrIndex,
): string | undefined {
  return check(value, partial, indexOf(ir), "$");
}

function check(value: unknown, partial: PartialType, index: IrIndex, path: string): string | undefined {
  if (partial.withState) {
    if (!isRecord(value) || !STREAM_STATES.includes(value.state as string) || !("value" in value)) {
      return `${path}: expected { value, state }, found ${preview(value)}`;
    }
    const { withState: _, ...plain } = partial;
    return check(value.value, { ...plain, nullable: true } as PartialType, index, `${path}.value`);
  }
  if (value === null && partial.nullable) return undefined;
  switch (partial.kind) {
    case "null":
      return value === null ? undefined : `${path}: expected null, found ${preview(value)}`;
    case "string":
      return typeof value === "string" ? undefined : `${path}: expected text, found ${preview(value)}`;
    case "whole":
      return checkFinal(value, partial.type, index, path);
    case "list":
      if (!Array.isArray(value)) return `${path}: expected a list, found ${preview(value)}`;
      for (let item = 0; item < value.length; item++) {
        const problem = check(value[item], partial.item, index, childPath(path, item));
        if (problem) return problem;
      }
      return undefined;
    case "map":
      if (!isRecord(value)) return `${path}: expected a map, found ${preview(value)}`;
      for (const key of Object.keys(value)) {
        const problem = check(value[key], partial.value, index, childPath(path, key));
        if (problem) return problem;
      }
      return undefined;
    case "union":
      return partial.options.some((option) => check(value, option, index, path) === undefined)
        ? undefined
        : `${path}: ${preview(value)} fits none of the union's partial types`;
    case "alias":
      return check(value, partialTypeOfAlias(partial, index), index, path);
    case "class": {
      if (!isRecord(value)) return `${path}: expected a partial ${partial.name}, found ${preview(value)}`;
      const fields = partialClassFields(partial.name, index);
      const keys = Object.keys(value);
      if (keys.length !== fields.length || fields.some((field) => !Object.hasOwn(value, field.name))) {
        return `${path}: expected the fields ${fields.map((field) => field.name).join(", ")}, found ${keys.join(", ")}`;
      }
      for (const field of fields) {
        const problem = check(value[field.name], field.type, index, childPath(path, field.name));
        if (problem) return problem;
      }
      return undefined;
    }
  }
}

/** A value of the final type (what a `whole` partial shows once complete). */
function checkFinal(value: unknown, type: Type, index: IrIndex, path: string): string | undefined {
  const mismatch = (expected: string) => `${path}: expected a whole ${expected}, found ${preview(value)}`;
  switch (type.kind) {
    case "primitive":
      switch (type.name) {
        case "string":
          return typeof value === "string" ? undefined : mismatch("string");
        case "int":
          return Number.isInteger(value) ? undefined : mismatch("int");
        case "float":
          return typeof value === "number" ? undefined : mismatch("float");
        case "bool":
          return typeof value === "boolean" ? undefined : mismatch("bool");
        case "null":
          return value === null ? undefined : mismatch("null");
      }
      break;
    case "literal":
      return value === type.value ? undefined : mismatch(JSON.stringify(type.value));
    case "enum": {
      const declaration = index.getEnum(type.name);
      return declaration.values.some((entry) => entry.name === value) ||
        (declaration.dynamic && typeof value === "string")
        ? undefined
        : mismatch(`enum ${type.name}`);
    }
    case "media":
      return mismatch(type.name);
    case "optional":
      return value === null ? undefined : checkFinal(value, type.inner, index, path);
    case "alias":
      return checkFinal(value, index.getAlias(type.name).type, index, path);
    case "union":
      return type.options.some((option) => checkFinal(value, option, index, path) === undefined)
        ? undefined
        : mismatch("value of the union");
    case "list":
      if (!Array.isArray(value)) return mismatch("list");
      for (let item = 0; item < value.length; item++) {
        const problem = checkFinal(value[item], type.item, index, childPath(path, item));
        if (problem) return problem;
      }
      return undefined;
    case "map":
      if (!isRecord(value)) return mismatch("map");
      for (const key of Object.keys(value)) {
        const problem = checkFinal(value[key], type.value, index, childPath(path, key));
        if (problem) return problem;
      }
      return undefined;
    case "class": {
      if (!isRecord(value)) return mismatch(`class ${type.name}`);
      for (const field of index.getClass(type.name).fields) {
        if (field.skip) continue;
        if (!Object.hasOwn(value, field.name)) return `${path}: the whole ${type.name} has no ${field.name}`;
        const problem = checkFinal(value[field.name], field.type, index, childPath(path, field.name));
        if (problem) return problem;
      }
      return undefined;
    }
  }
  return undefined;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * A final value (what `parseValue` returns) in the shape of its partial type: what the last partial of a
 * whole answer shows. `@stream.with_state` values are wrapped as `{ value, state: "Complete" }`, fields
 * missing from an object are null; a union takes the first option the mapped value fits. A value of
 * another shape (another arm of a union) is left as it is. For the tests that hold a stream to final mode.
 */
export function finalAsPartial(value: unknown, partial: PartialType, ir: Ir | IrIndex): unknown {
  return mapped(value, partial, indexOf(ir));
}

function mapped(value: unknown, partial: PartialType, index: IrIndex): unknown {
  if (partial.withState) {
    const { withState: _, ...plain } = partial;
    return { value: mapped(value, { ...plain, nullable: true } as PartialType, index), state: "Complete" };
  }
  if (value === null) return null;
  switch (partial.kind) {
    case "list":
      return Array.isArray(value) ? value.map((item) => mapped(item, partial.item, index)) : value;
    case "map":
      if (!isRecord(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, entry]) => [key, mapped(entry, partial.value, index)]),
      );
    case "class": {
      const fields = partialClassFields(partial.name, index);
      // Not this class (another arm of a union): left as it is, so the arm does not fit.
      if (!isRecord(value) || Object.keys(value).some((key) => !fields.some((field) => field.name === key)))
        return value;
      const out: Record<string, unknown> = {};
      for (const field of fields) out[field.name] = mapped(value[field.name] ?? null, field.type, index);
      return out;
    }
    case "alias":
      return mapped(value, partialTypeOfAlias(partial, index), index);
    case "union":
      for (const option of partial.options) {
        const candidate = mapped(value, option, index);
        if (checkPartialValue(candidate, option, index) === undefined) return candidate;
      }
      return value;
    default:
      return value;
  }
}

/** A plain object: not null, not an array (what JSON reads as an object). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
