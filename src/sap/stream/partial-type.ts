import {
  type Ir,
  type IrIndex,
  type StreamBehaviour,
  streamBehaviourOf,
  TOP_LEVEL,
  type Type,
  typeToString,
} from "../../ir/index.js";
import { indexOf } from "./index-of.js";

/**
 * The shape of a partial value of an IR type: what a stream parser may hand out while the answer is
 * still being written. Each node says whether it may be `null` (not written yet) and whether it is
 * wrapped as `{ value, state }` (`@stream.with_state`). Partial classes are referred to by name, so
 * recursive types stay finite: `partialClassFields` gives their fields.
 */
export type PartialType = (
  | /** Appears only complete, in its final shape: numbers, bools, enums, literals, `@stream.done` types. */
  { kind: "whole"; type: Type }
  /** Text so far. */
  | { kind: "string" }
  /** A class whose fields fill in as they are written (`partialClassFields`). */
  | { kind: "class"; name: string }
  /** A list of the items ready so far; never null. */
  | { kind: "list"; item: PartialType }
  /** The entries ready so far; never null. */
  | { kind: "map"; key: PartialType; value: PartialType }
  | { kind: "union"; options: PartialType[] }
  /** The `null` of `T?` and of `null` itself. */
  | { kind: "null" }
  /** A type alias, read through (recursive aliases are expanded on demand by `partialTypeOfAlias`). */
  | { kind: "alias"; name: string }
) & {
  /** May be null while the value has not been written (or is not ready). */
  nullable: boolean;
  /** `@stream.with_state`: the value comes as `{ value, state: "Pending" | "Incomplete" | "Complete" }`. */
  withState?: true;
};

/** A partial class's fields, in declaration order (skipped fields left out). */
export interface PartialField {
  name: string;
  type: PartialType;
}

/**
 * The partial type of `type` (BAML's streaming types, reference/baml.md §4.2, as the TypeScript code
 * generator renders them): every value may be null until written unless it is needed (a list item, a map
 * entry, a union arm, `@stream.not_null`); lists and maps are never null; ints, floats, bools, enums,
 * literals, `@stream.done` types and `@@stream.done` classes appear only whole (`kind: "whole"`, their
 * final type); `@stream.with_state` wraps the value.
 */
export function partialType(type: Type, ir: Ir | IrIndex): PartialType {
  return convert(type, TOP_LEVEL, indexOf(ir));
}

/** The fields of the partial class `name`: each field's partial type. */
export function partialClassFields(name: string, ir: Ir | IrIndex): PartialField[] {
  const index = indexOf(ir);
  return index
    .getClass(name)
    .fields.filter((field) => !field.skip)
    .map((field) => ({ name: field.name, type: convert(field.type, TOP_LEVEL, index) }));
}

/** The partial type an alias reference stands for (its target, read with the alias's own flags). */
export function partialTypeOfAlias(
  reference: PartialType & { kind: "alias" },
  ir: Ir | IrIndex,
): PartialType {
  const index = indexOf(ir);
  const converted = convert(
    index.getAlias(reference.name).type,
    { needed: !reference.nullable, done: false },
    index,
  );
  return reference.withState ? { ...converted, withState: true } : converted;
}

function convert(type: Type, inherited: StreamBehaviour, index: IrIndex): PartialType {
  const { done, needed, inner } = streamBehaviourOf(
    type,
    inherited,
    (name) => index.getClass(name).streamDone === true,
  );
  let shape: PartialType;
  switch (type.kind) {
    case "list":
      shape = { kind: "list", item: convert(type.item, inner, index), nullable: false };
      break;
    case "map":
      shape = {
        kind: "map",
        key: convert(type.key, inner, index),
        value: convert(type.value, inner, index),
        nullable: false,
      };
      break;
    case "union":
      shape = {
        kind: "union",
        options: type.options.map((option) => convert(option, inner, index)),
        nullable: !needed,
      };
      break;
    case "optional":
      shape = {
        kind: "union",
        options: [convert(type.inner, inner, index), { kind: "null", nullable: true }],
        nullable: true,
      };
      break;
    case "primitive":
      if (type.name === "null") shape = { kind: "null", nullable: true };
      else if (type.name === "string" && !done) shape = { kind: "string", nullable: !needed };
      else shape = { kind: "whole", type, nullable: !needed };
      break;
    case "class":
      shape = done
        ? { kind: "whole", type, nullable: !needed }
        : { kind: "class", name: type.name, nullable: !needed };
      break;
    case "alias":
      shape = done
        ? { kind: "whole", type, nullable: !needed }
        : { kind: "alias", name: type.name, nullable: !needed };
      break;
    default:
      shape = { kind: "whole", type, nullable: !needed };
  }
  return type.attrs?.streamWithState ? { ...shape, withState: true } : shape;
}

/**
 * A partial type printed for people: `Partial<Order>`, `string | null`, `Item[]`,
 * `StreamState<string | null>`; whole values print as their final type (`int | null`).
 */
export function partialTypeToString(partial: PartialType): string {
  let text: string;
  switch (partial.kind) {
    case "whole":
      text = typeToString(partial.type);
      break;
    case "string":
      text = "string";
      break;
    case "null":
      return partial.withState ? "StreamState<null>" : "null";
    case "class":
    case "alias":
      text = `Partial<${partial.name}>`;
      break;
    case "list": {
      const item = partialTypeToString(partial.item);
      text = item.includes(" ") && !item.startsWith("StreamState<") ? `(${item})[]` : `${item}[]`;
      break;
    }
    case "map":
      text = `map<${partialTypeToString(partial.key)}, ${partialTypeToString(partial.value)}>`;
      break;
    case "union":
      text = [...new Set(partial.options.map(partialTypeToString))].join(" | ");
      break;
  }
  if (partial.nullable && !/(^|\| )null($| \|)/.test(text)) text = `${text} | null`;
  return partial.withState ? `StreamState<${text}>` : text;
}
