import type { Class, Field } from "../../../ir/index.js";
import { normalizeWords } from "../enum/normalize-words.js";

/** How a class's fields are found by the keys a model wrote; built once per declaration. */
export interface FieldLookup {
  /** The fields the model sees (not `@skip`), in declaration order. */
  fields: Field[];
  /** Field → its position in `fields`. */
  positions: Map<Field, number>;
  /**
   * The key the model was shown (alias, else name) → its match. The matches are made once, shared by
   * every object of the class (read-only).
   */
  exact: Map<string, FieldMatch>;
  /** The same keys as normalized words (`firstName`, `First Name`, `FIRST_NAME` → `first name`). */
  folded: Map<string, FieldMatch>;
}

const lookups = new WeakMap<Class, FieldLookup>();

/** The lookup of `declaration` (cached: declarations are immutable IR data). */
export function fieldLookupOf(declaration: Class): FieldLookup {
  let lookup = lookups.get(declaration);
  if (!lookup) {
    const fields = declaration.fields.filter((field) => !field.skip);
    lookup = {
      fields,
      positions: new Map(fields.map((field, index) => [field, index])),
      exact: new Map(),
      folded: new Map(),
    };
    for (const field of fields) {
      const key = field.alias ?? field.name;
      lookup.exact.set(key, { field, folded: false });
      lookup.folded.set(normalizeWords(key).join(" "), { field, folded: true });
    }
    lookups.set(declaration, lookup);
  }
  return lookup;
}

/** A key matched to a field: exactly, or ignoring case, spacing and punctuation (`folded`). */
export interface FieldMatch {
  readonly field: Field;
  readonly folded: boolean;
}

/** The field a key names: exactly, else ignoring case, spacing and punctuation (`folded`). */
export function matchField(lookup: FieldLookup, key: string): FieldMatch | undefined {
  return lookup.exact.get(key) ?? lookup.folded.get(normalizeWords(key).join(" "));
}
