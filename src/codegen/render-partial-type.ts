import { type StreamBehaviour, streamBehaviourOf, type Type } from "../ir/index.js";
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
  const behaviour = streamBehaviourOf(
    type,
    inherited,
    (name) => context.index.classes.get(name)?.streamDone === true,
  );
  const { done, inner } = behaviour;
  // An alias to `T?` already admits null; marking it needed avoids printing `X | null` twice over.
  const needed = behaviour.needed || aliasIsOptional(type, context);
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
      members = [done ? typesRef(type.name, context) : partialRef(type.name, context)];
      break;
    }
    case "alias":
      if (!context.index.aliases.has(type.name)) throw unknownReference("type alias", type.name);
      members = [done ? typesRef(type.name, context) : partialRef(type.name, context)];
      break;
    case "list":
      members = [`${asOperand(renderPartialType(type.item, inner, context))}[]`];
      break;
    case "map":
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

/** Whether the alias `type` names (through further aliases) is already optional. */
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
