import type { Type } from "./types.js";

/**
 * A union as the IR wants it: nested unions flattened, `null` arms turned into an optional, identical arms
 * kept once, a single arm unwrapped.
 */
export function unionOf(options: readonly Type[]): Type {
  const arms: Type[] = [];
  const seen = new Set<string>();
  let nullable = false;
  const add = (type: Type): void => {
    if (type.kind === "union" && !type.attrs) for (const option of type.options) add(option);
    else if (type.kind === "optional" && !type.attrs) {
      nullable = true;
      add(type.inner);
    } else if (type.kind === "primitive" && type.name === "null" && !type.attrs) nullable = true;
    else {
      const key = JSON.stringify(type);
      if (seen.has(key)) return;
      seen.add(key);
      arms.push(type);
    }
  };
  for (const option of options) add(option);
  const [single] = arms;
  if (single === undefined) return { kind: "primitive", name: "null" };
  const core: Type = arms.length === 1 ? single : { kind: "union", options: arms };
  return nullable ? { kind: "optional", inner: core } : core;
}
