import type { Constraint, IrIndex, Type } from "../../ir/index.js";

/** What a type kind contains: inner types to visit, and the declaration's own constraints. */
interface Contents {
  inner: [type: Type, where: string][];
  constraints?: readonly Constraint[];
  /** A declaration name, visited once (recursive types). */
  declaration?: string;
}

type ContentsReader<T extends Type> = (type: T, index: IrIndex, where: string) => Contents;
type ContentsTable = { [K in Type["kind"]]: ContentsReader<Extract<Type, { kind: K }>> };

const none: Contents = { inner: [] };

/** Per kind, where constraints can hide: class fields and `@@` blocks, enum blocks, alias targets, items. */
const contents: ContentsTable = {
  primitive: () => none,
  literal: () => none,
  media: () => none,
  enum: (type, index) => ({
    declaration: `enum ${type.name}`,
    inner: [],
    constraints: index.enums.get(type.name)?.constraints,
  }),
  class: (type, index) => {
    const declaration = index.classes.get(type.name);
    return {
      declaration: `class ${type.name}`,
      constraints: declaration?.constraints,
      inner: (declaration?.fields ?? [])
        .filter((field) => !field.skip)
        .map((field) => [field.type, `${type.name}.${field.name}`]),
    };
  },
  alias: (type, index) => {
    const target = index.aliases.get(type.name)?.type;
    return { declaration: `alias ${type.name}`, inner: target ? [[target, type.name]] : [] };
  },
  list: (type, _index, where) => ({ inner: [[type.item, where]] }),
  map: (type, _index, where) => ({
    inner: [
      [type.key, where],
      [type.value, where],
    ],
  }),
  optional: (type, _index, where) => ({ inner: [[type.inner, where]] }),
  union: (type, _index, where) => ({ inner: type.options.map((option) => [option, where]) }),
};

/**
 * The name of the first place in a type (through classes, enums and aliases) that carries a
 * `@check`/`@assert`, or undefined. Lets `parseValue` reject a call without a constraint evaluator up
 * front, whatever the answer turns out to be.
 */
export function findConstraint(type: Type, index: IrIndex): string | undefined {
  const seen = new Set<string>();
  const pending: [Type, string][] = [[type, "the target type"]];
  while (pending.length > 0) {
    const [current, where] = pending.pop()!;
    if ((current.attrs?.constraints?.length ?? 0) > 0) return where;
    const found = (contents[current.kind] as ContentsReader<Type>)(current, index, where);
    if (found.declaration !== undefined) {
      if (seen.has(found.declaration)) continue;
      seen.add(found.declaration);
    }
    if ((found.constraints?.length ?? 0) > 0) return found.declaration ?? where;
    pending.push(...found.inner);
  }
  return undefined;
}
