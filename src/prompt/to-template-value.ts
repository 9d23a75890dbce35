import type { IrIndex, Type } from "../ir/index.js";
import { isMediaValue } from "../util/index.js";
import { float } from "./jinja/numbers.js";
import { ClassInstance, EnumType, EnumValue, isMap, markBamlList } from "./jinja/values.js";

/**
 * Turns a function argument into the value a template sees, guided by the parameter's declared type:
 * class instances keep their field aliases for printing, enum values print their alias and compare equal to
 * their name, media values stay media (they become message parts). Anything else passes through.
 */
export function toTemplateValue(value: unknown, type: Type, index: IrIndex, depth = 0): unknown {
  if (value === undefined || value === null) return null;
  if (depth > 64) return value;
  switch (type.kind) {
    case "alias": {
      const alias = index.aliases.get(type.name);
      return alias ? toTemplateValue(value, alias.type, index, depth + 1) : value;
    }
    case "optional":
      return toTemplateValue(value, type.inner, index, depth + 1);
    case "enum":
      return toEnumValue(value, type.name, index);
    case "class":
      return toClassInstance(value, type.name, index, depth);
    case "list":
      if (!Array.isArray(value)) return value;
      return markBamlList(value.map((item) => toTemplateValue(item, type.item, index, depth + 1)));
    case "primitive":
      return type.name === "float" && typeof value === "number" ? float(value) : value;
    case "map":
      if (!isMap(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          toTemplateValue(item, type.value, index, depth + 1),
        ]),
      );
    case "union":
      return toTemplateValue(value, pickArm(value, type.options, index), index, depth + 1);
    default:
      return value;
  }
}

function toEnumValue(value: unknown, enumName: string, index: IrIndex): unknown {
  if (value instanceof EnumValue || typeof value !== "string") return value;
  const declared = index.enums.get(enumName);
  const member = declared?.values.find((candidate) => candidate.name === value);
  return member ? new EnumValue(enumName, member.name, member.alias) : value;
}

function toClassInstance(value: unknown, className: string, index: IrIndex, depth: number): unknown {
  const declared = index.classes.get(className);
  if (!declared || !isMap(value)) return value;
  const fields = new Map<string, unknown>();
  const aliases = new Map<string, string>();
  for (const field of declared.fields) {
    if (field.alias !== undefined) aliases.set(field.name, field.alias);
    fields.set(field.name, toTemplateValue(value[field.name], field.type, index, depth + 1));
  }
  // Fields added at run time (dynamic classes) are kept after the declared ones.
  for (const [key, item] of Object.entries(value)) if (!fields.has(key)) fields.set(key, item);
  return new ClassInstance(className, fields, aliases);
}

/** The union arm a value belongs to: a class whose required fields it has, an enum naming it, else the first. */
function pickArm(value: unknown, options: Type[], index: IrIndex): Type {
  for (const option of options) {
    const resolved = option.kind === "alias" ? safeResolve(option, index) : option;
    if (resolved.kind === "class" && isMap(value)) {
      const declared = index.classes.get(resolved.name);
      const required =
        declared?.fields.filter((field) => field.type.kind !== "optional" && !field.skip) ?? [];
      if (required.every((field) => Object.hasOwn(value, field.name))) return resolved;
    }
    if (resolved.kind === "enum" && typeof value === "string") {
      if (index.enums.get(resolved.name)?.values.some((member) => member.name === value)) return resolved;
    }
    if (resolved.kind === "media" && isMediaValue(value)) return resolved;
    if (resolved.kind === "list" && Array.isArray(value)) return resolved;
  }
  return options[0] ?? { kind: "primitive", name: "string" };
}

function safeResolve(type: Type, index: IrIndex): Type {
  try {
    return index.resolveAlias(type);
  } catch {
    return type;
  }
}

/** Every enum of the IR as a global, so prompts can write `{% if kind == Kind.REFUND %}`. */
export function enumGlobals(index: IrIndex): Record<string, EnumType> {
  const globals: Record<string, EnumType> = {};
  for (const declared of index.enums.values()) {
    const values = new Map(
      declared.values.map((member) => [member.name, new EnumValue(declared.name, member.name, member.alias)]),
    );
    globals[declared.name] = new EnumType(declared.name, values);
  }
  return globals;
}
