import type { Type } from "../ir/index.js";
import { primitiveText, renderFinalType } from "./render-final-type.js";
import {
  asOperand,
  literalText,
  type Members,
  mapText,
  mediaClassName,
  partialRef,
  type TypeRenderContext,
  typesRef,
  unionMembers,
  unknownReference,
  wrapChecked,
} from "./type-render-context.js";

/** What an enclosing type passes down: BAML's streaming behaviour flags. */
export interface StreamBehaviour {
  /** The value may not be null in a partial (list items, map entries, union arms, `@stream.not_null`). */
  needed: boolean;
  /** The value appears only when complete (`@stream.done`, propagated into containers). */
  done: boolean;
}

/**
 * An IR type as the TypeScript type of a *partial* value while a stream is running, following BAML's
 * streaming converter (reference/baml.md §4.2):
 * - every value is nullable (not seen yet) unless it is needed: a list item, a map key or value, a union
 *   arm, a `@stream.not_null` field, or an alias whose expansion is already optional;
 * - lists and maps are never null (they start empty);
 * - ints, floats, bools, enums and literals are inherently done: they appear only complete, so they keep
 *   their final type; a done class (`@stream.done`, `@@stream.done`) uses its final shape from `types`;
 *   done propagates into list items, map entries and union arms;
 * - `@stream.with_state` wraps the (possibly nullable) result as `StreamState<T>`.
 * `@check`s wrap the value as in final types; the `| null` for "not seen yet" goes outside `Checked`.
 */
export function renderPartialType(
  type: Type,
  inherited: StreamBehaviour,
  context: TypeRenderContext,
): Members {
  const attrs = type.attrs ?? {};
  const done = inherited.done || attrs.streamDone === true || isInherentlyDone(type, context);
  let needed = inherited.needed || attrs.streamNotNull === true || aliasIsOptional(type, context);
  const inner: StreamBehaviour = { needed: true, done };
  let members: Members;
  switch (type.kind) {
    case "primitive":
      members = [primitiveText[type.name]];
      break;
    case "literal":
      members = [literalText(type.value)];
      break;
    case "media":
      members = [mediaClassName(type.name)];
      context.used.add(members[0] as string);
      break;
    case "enum":
      // Enums never stream partially, so the final type (with its dynamic `string`) is the partial type.
      members = renderFinalType({ kind: "enum", name: type.name }, context);
      break;
    case "class": {
      const declaration = context.index.classes.get(type.name);
      if (!declaration) throw unknownReference("class", type.name);
      const whole = done || declaration.streamDone === true;
      members = [whole ? typesRef(type.name, context) : partialRef(type.name, context)];
      break;
    }
    case "alias":
      if (!context.index.aliases.has(type.name)) throw unknownReference("type alias", type.name);
      members = [done ? typesRef(type.name, context) : partialRef(type.name, context)];
      break;
    case "list":
      needed = true;
      members = [`${asOperand(renderPartialType(type.item, inner, context))}[]`];
      break;
    case "map":
      needed = true;
      members = [
        mapText(
          renderPartialType(type.key, inner, context),
          renderPartialType(type.value, inner, context),
          context,
        ),
      ];
      break;
    case "union":
      members = unionMembers(type.options.map((option) => renderPartialType(option, inner, context)));
      break;
    case "optional":
      members = unionMembers([renderPartialType(type.inner, inner, context), ["null"]]);
      break;
  }
  members = wrapChecked(members, type, context);
  if (!needed && !members.includes("null")) members = [...members, "null"];
  if (attrs.streamWithState) {
    context.used.add("StreamState");
    members = [`StreamState<${members.join(" | ")}>`];
  }
  return members;
}

function isInherentlyDone(type: Type, context: TypeRenderContext): boolean {
  switch (type.kind) {
    case "primitive":
      return type.name === "int" || type.name === "float" || type.name === "bool";
    case "enum":
    case "literal":
      return true;
    case "class":
      return context.index.classes.get(type.name)?.streamDone === true;
    default:
      return false;
  }
}

/** An alias to `T?` already admits null; marking it needed avoids printing `X | null` twice over. */
function aliasIsOptional(type: Type, context: TypeRenderContext): boolean {
  if (type.kind !== "alias") return false;
  const seen = new Set<string>();
  let current: Type = type;
  while (current.kind === "alias") {
    if (seen.has(current.name)) return false;
    seen.add(current.name);
    const target = context.index.aliases.get(current.name);
    if (!target) return false;
    current = target.type;
  }
  return (
    current.kind === "optional" ||
    (current.kind === "primitive" && current.name === "null") ||
    (current.kind === "union" &&
      current.options.some((option) => option.kind === "primitive" && option.name === "null"))
  );
}
