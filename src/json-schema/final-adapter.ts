import type { FlagKind } from "../typed-schema/index.js";

/** The repairs the parser flagged, by the path of the value they concern (`$.items[0].name`). */
export type FlagIndex = ReadonlyMap<string, ReadonlySet<FlagKind>>;

/**
 * Turns the parser's final value into the value the schema describes, at `path` (the parser's own path
 * syntax, so a flag can be matched to the value it concerns): properties left out are left out again,
 * defaults fill them, substitutions the parser made are undone for the validator to judge.
 */
export type FinalAdapter = (value: unknown, path: string, flags: FlagIndex) => unknown;

/** The flags of a parse, indexed by path. */
export function indexFlags(flags: readonly { kind: FlagKind; path: string }[]): FlagIndex {
  const index = new Map<string, Set<FlagKind>>();
  for (const flag of flags) {
    const kinds = index.get(flag.path) ?? new Set<FlagKind>();
    kinds.add(flag.kind);
    index.set(flag.path, kinds);
  }
  return index;
}

/** The path step to a property, written as the parser writes it (`.name`, or `["odd key"]`). */
export function fieldStep(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
