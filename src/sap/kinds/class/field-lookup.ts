import type { Class, Field } from "../../../ir/index.js";
import { normalizeWords } from "../enum/normalize-words.js";

/** How a class's fields are found by the keys a model wrote; built once per declaration. */
export interface FieldLookup {
  /** The fields the model sees (not `@skip`), in declaration order. */
  fields: Field[];
  /** Field → its position in `fields`. */
  positions: Map<Field, number>;
  /** The key the model was shown (alias, else name) → field. */
  exact: Map<string, Field>;
  /** The same keys as normalized words (`firstName`, `First Name`, `FIRST_NAME` → `first name`). */
  folded: Map<string, Field>;
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
      lookup.exact.set(key, field);
      lookup.folded.set(normalizeWords(key).join(" "), field);
    }
    lookups.set(declaration, lookup);
  }
  return lookup;
}

/** A key matched to a field: exactly, or ignoring case, spacing and punctuation (`folded`). */
export interface FieldMatch {
  field: Field;
  folded: boolean;
}

/** The field a key names: exactly, else ignoring case, spacing and punctuation (`folded`). */
export function matchField(lookup: FieldLookup, key: string): FieldMatch | undefined {
  const field = lookup.exact.get(key);
  if (field) return { field, folded: false };
  const folded = lookup.folded.get(normalizeWords(key).join(" "));
  return folded ? { field: folded, folded: true } : undefined;
}
