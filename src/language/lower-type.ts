import type { Constraint, MediaName, PrimitiveName, Type, TypeAttributes } from "../ir/index.js";
import type { Attribute, TypeExpression } from "./ast.js";
import { mediaNames, primitiveNames, type TypeScope } from "./resolve-type.js";

/**
 * Lower a checked type expression to an IR type: names become primitive/media/class/enum/alias
 * references, unions are flattened, `null` members and `T?` become `optional`, and attributes become
 * type attributes. Only call on expressions the checker accepted.
 */
export function lowerType(expression: TypeExpression, scope: TypeScope): Type {
  const type = lowerBare(expression, scope);
  return withAttributes(type, typeAttributes(expression.attributes));
}

function lowerBare(expression: TypeExpression, scope: TypeScope): Type {
  switch (expression.kind) {
    case "named": {
      if (primitiveNames.has(expression.name))
        return { kind: "primitive", name: expression.name as PrimitiveName };
      if (mediaNames.has(expression.name)) return { kind: "media", name: expression.name as MediaName };
      const kind = scope.kindOf(expression.name) ?? "class";
      return { kind, name: expression.name };
    }
    case "literal":
      return { kind: "literal", value: expression.value };
    case "list":
      return { kind: "list", item: lowerType(expression.item, scope) };
    case "map":
      return {
        kind: "map",
        key: lowerType(expression.typeArguments[0] ?? errorType(expression), scope),
        value: lowerType(expression.typeArguments[1] ?? errorType(expression), scope),
      };
    case "group":
      return lowerType(expression.inner, scope);
    case "optional":
      return makeOptional(lowerType(expression.inner, scope));
    case "union":
      return makeUnion(expression.options.map((option) => lowerType(option, scope)));
    case "tuple":
    case "error":
      // Rejected by the checker; lowered as `null` so a caller that ignores errors still gets a type.
      return { kind: "primitive", name: "null" };
  }
}

function errorType(expression: TypeExpression): TypeExpression {
  return { kind: "error", attributes: [], span: expression.span };
}

/** `T?`: collapses `T??` and `null?`. */
export function makeOptional(inner: Type): Type {
  if (inner.kind === "optional") return inner;
  if (inner.kind === "primitive" && inner.name === "null" && !inner.attrs) return inner;
  return { kind: "optional", inner };
}

/**
 * A flattened union: nested unions are spliced in, `null` and optional members make the whole union
 * optional (`A | null` → `A?`), and a single remaining member stands alone. The result never contains a
 * nested union or an `optional`, as the IR promises.
 */
export function makeUnion(members: Type[]): Type {
  const options: Type[] = [];
  let nullable = false;
  const add = (member: Type): void => {
    // Attributes of a nested union or of `T?` move onto the members: a value of a union is one of its
    // members, so a constraint or stream rule on the whole applies to whichever member it is.
    if (member.kind === "union") {
      for (const option of member.options) add(withAttributes(option, member.attrs));
      return;
    }
    if (member.kind === "optional") {
      nullable = true;
      add(withAttributes(member.inner, member.attrs));
      return;
    }
    if (member.kind === "primitive" && member.name === "null" && member.attrs === undefined) {
      nullable = true;
      return;
    }
    options.push(member);
  };
  members.forEach(add);
  let result: Type;
  if (options.length === 0) result = { kind: "primitive", name: "null" };
  else if (options.length === 1) result = options[0] as Type;
  else result = { kind: "union", options };
  return nullable ? makeOptional(result) : result;
}

/** Attach attributes, merging with any the type already has (constraints accumulate). */
export function withAttributes(type: Type, attributes: TypeAttributes | undefined): Type {
  if (attributes === undefined) return type;
  const merged: TypeAttributes = { ...type.attrs };
  if (attributes.constraints) merged.constraints = [...(merged.constraints ?? []), ...attributes.constraints];
  if (attributes.streamDone) merged.streamDone = true;
  if (attributes.streamNotNull) merged.streamNotNull = true;
  if (attributes.streamWithState) merged.streamWithState = true;
  return { ...type, attrs: merged };
}

/** The type attributes among `attributes` (`@check`, `@assert`, `@stream.*`), or `undefined` if none. */
export function typeAttributes(attributes: readonly Attribute[]): TypeAttributes | undefined {
  const result: TypeAttributes = {};
  const constraints = lowerConstraints(attributes);
  if (constraints.length > 0) result.constraints = constraints;
  for (const attribute of attributes) {
    if (attribute.name === "stream.done") result.streamDone = true;
    else if (attribute.name === "stream.not_null") result.streamNotNull = true;
    else if (attribute.name === "stream.with_state") result.streamWithState = true;
  }
  return Object.keys(result).length === 0 ? undefined : result;
}

/** `@check(label, {{ expr }})` / `@assert(label?, {{ expr }})` in order of appearance. */
export function lowerConstraints(attributes: readonly Attribute[]): Constraint[] {
  const constraints: Constraint[] = [];
  for (const attribute of attributes) {
    if (attribute.name !== "check" && attribute.name !== "assert") continue;
    const expression = attribute.args.find((argument) => argument.kind === "expression");
    if (expression?.kind !== "expression") continue;
    const label = attribute.args[0];
    const constraint: Constraint = { level: attribute.name, expression: expression.expression.trim() };
    if (label?.kind === "identifier") constraint.label = label.name;
    else if (label?.kind === "string") constraint.label = label.value;
    constraints.push(constraint);
  }
  return constraints;
}
