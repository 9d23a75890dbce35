import type { Class, ClassRefType, Field } from "../../../ir/index.js";
import { applyConstraints } from "../../coerce/apply-constraints.js";
import type { CoerceContext, KindCoercer } from "../../coerce/coerce-context.js";
import { addFlag, type CoerceResult, childPath, failure, ResultBuilder } from "../../coerce/coerce-result.js";
import { setOwn } from "../../coerce/set-own.js";
import type { JsonishNode, ObjectNode } from "../../lenient/jsonish-node.js";
import { callArguments, isArgumentsKey, MAX_CALLS } from "./call-arguments.js";
import { type FieldLookup, fieldLookupOf, matchField } from "./field-lookup.js";
import { invalidField, keyReplaces, listAsFieldText, mayImplyKey, missingField } from "./field-rules.js";

/**
 * Classes: keys matched to fields (exactly, else ignoring case/spacing/punctuation, flagged), unknown keys
 * flagged and ignored, missing optional fields null, missing required lists and maps empty (flagged), a
 * missing required scalar an error. A single-field class also accepts its field's value directly. A
 * one-element list holding the object is unwrapped, and so are a function call's arguments
 * (`call-arguments.ts`). Output keys are the declared names, in declared order.
 */
export const classCoercer: KindCoercer<ClassRefType> = {
  coerce(type, node, path, context) {
    const declaration = context.index.getClass(type.name);
    const active = context.active.get(node) ?? [];
    if (active.includes(type.name)) {
      return failure(
        "circular",
        path,
        `class ${type.name}`,
        node,
        `Class ${type.name} would have to contain itself.`,
      );
    }
    context.active.set(node, [...active, type.name]);
    try {
      const result = coerceClass(type, declaration, node, path, context);
      if (!result.ok || declaration.constraints.length === 0) return result;
      return applyConstraints(declaration.constraints, result, path, context, `class ${type.name}`, node);
    } finally {
      if (active.length === 0) context.active.delete(node);
      else context.active.set(node, active);
    }
  },
  plainText: () => "never",
  fits: (_type, node) => node.kind === "object",
  describe: (type) => `class ${type.name}`,
};

function coerceClass(
  type: ClassRefType,
  declaration: Class,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
  calls = 0,
): CoerceResult {
  const lookup = fieldLookupOf(declaration);
  const soleField = lookup.fields.length === 1 ? lookup.fields[0] : undefined;
  if (node.kind === "object") {
    const call = calls < MAX_CALLS ? callOf(lookup, node, context) : undefined;
    if (call) {
      const result = coerceClass(type, declaration, call.node, path, context, calls + 1);
      return result.ok
        ? addFlag(
            result,
            "UnwrappedObject",
            path,
            `read the call's "${call.key}" as ${declaration.name}`,
            node,
          )
        : result;
    }
    const matchesAnyKey = node.entries.some(([key]) => matchField(lookup, key) !== undefined);
    const direct = fromObject(declaration, lookup, node, path, context);
    // A single-field class given an object with none of its keys: the object may be the field's value
    // itself. Keep whichever reading repairs less.
    if (!mayImplyKey(soleField, node, matchesAnyKey, context)) return direct;
    const implied = intoSoleField(soleField, node, path, context);
    if (!implied.ok) return direct;
    return direct.ok && direct.score <= implied.score ? direct : implied;
  }
  if (soleField) return intoSoleField(soleField, node, path, context);
  if (node.kind === "array" && node.items.length === 1) {
    // Through the shared entry point, so the depth guard sees `[[[[…]]]]`.
    const result = context.coerce(type, node.items[0]!, childPath(path, 0));
    return result.ok
      ? addFlag(result, "ListToSingle", path, "used the only item of a one-element list", node)
      : result;
  }
  return failure("type-mismatch", path, `an object for class ${declaration.name}`, node);
}

/** The arguments of a function call written where the class was expected (`callArguments`). */
function callOf(lookup: FieldLookup, node: ObjectNode, context: CoerceContext) {
  if (!node.entries.some(([key]) => !lookup.exact.has(key) && isArgumentsKey(key))) return undefined;
  const named = new Set<Field>();
  let argument: [string, JsonishNode] | undefined;
  for (const entry of node.entries) {
    const match = matchField(lookup, entry[0]);
    if (match) named.add(match.field);
    else if (isArgumentsKey(entry[0])) argument = entry;
  }
  return callArguments(argument, lookup.fields, (index) => named.has(lookup.fields[index]!), context);
}

function intoSoleField(field: Field, node: JsonishNode, path: string, context: CoerceContext): CoerceResult {
  const result = context.coerce(field.type, node, childPath(path, field.name));
  if (!result.ok) return result;
  const listAsText = listAsFieldText(field, node, result.value, path);
  if (listAsText) return listAsText;
  const value = setOwn({}, field.name, result.value);
  return addFlag(
    { ...result, value },
    "ImpliedKey",
    path,
    `the value was read as the only field "${field.name}"`,
    node,
  );
}

function fromObject(
  declaration: Class,
  lookup: FieldLookup,
  node: ObjectNode,
  path: string,
  context: CoerceContext,
): CoerceResult {
  const builder = new ResultBuilder();
  const found = new Map<Field, JsonishNode>();
  const exactly = new Set<Field>();
  for (const [key, value] of node.entries) {
    const match = matchField(lookup, key);
    if (!match) {
      builder.flag(
        "ExtraKey",
        childPath(path, key),
        `the key "${key}" is not a field of ${declaration.name}; ignored`,
        value,
      );
      continue;
    }
    if (match.folded) {
      const shown = match.field.alias ?? match.field.name;
      builder.flag(
        "KeyCaseFold",
        childPath(path, match.field.name),
        `the key "${key}" read as "${shown}"`,
        value,
      );
    }
    if (!keyReplaces(match, exactly.has(match.field))) continue;
    if (!match.folded) exactly.add(match.field);
    if (found.has(match.field)) context.onKeyAgain?.(path);
    found.set(match.field, value);
  }
  const value: Record<string, unknown> = {};
  for (const field of lookup.fields) {
    const fieldPath = childPath(path, field.name);
    const fieldNode = found.get(field);
    if (fieldNode === undefined) {
      const fallback = missingField(field, context);
      if (!fallback) {
        return failure(
          "missing-field",
          fieldPath,
          context.describe(field.type),
          undefined,
          `The answer has no "${field.alias ?? field.name}" for ${declaration.name}.`,
        );
      }
      builder.flag(fallback.flag, fieldPath, fallback.detail, node);
      setOwn(value, field.name, fallback.value);
      continue;
    }
    const result = context.coerce(field.type, fieldNode, fieldPath);
    if (result.ok) {
      builder.add(result);
      setOwn(value, field.name, result.value);
      continue;
    }
    const fallback = invalidField(field, fieldNode, result.issue, context);
    if (!fallback) return result;
    builder.flag(fallback.flag, fieldPath, fallback.detail, fieldNode);
    setOwn(value, field.name, fallback.value);
  }
  return builder.build(value);
}
