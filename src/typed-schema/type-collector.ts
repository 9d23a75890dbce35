import { type Class, type Enum, emptyIr, type Ir, type TypeAlias } from "../ir/index.js";

/**
 * Gathers the classes, enums and aliases a schema conversion declares, under names no other declaration
 * uses: a Zod or JSON Schema has no names of its own for nested objects, so the converters propose one
 * (`.meta({ id })`, a `$defs` key, or one made from the path) and the collector makes it unique.
 */
export class TypeCollector {
  readonly classes: Class[] = [];
  readonly enums: Enum[] = [];
  readonly aliases: TypeAlias[] = [];
  readonly #names = new Set<string>();

  /** `isTaken` reports names declared elsewhere (a TypeBuilder's project types). */
  constructor(private readonly isTaken: (name: string) => boolean = () => false) {}

  /** Reserves `wanted` (as an identifier), or `wanted2`, `wanted3`, … when it is taken. */
  reserve(wanted: string): string {
    const base = toIdentifier(wanted);
    let name = base;
    for (let suffix = 2; this.#names.has(name) || this.isTaken(name); suffix += 1) name = `${base}${suffix}`;
    this.#names.add(name);
    return name;
  }

  /** Reserves exactly `name`; false when it is taken. */
  reserveExactly(name: string): boolean {
    if (this.#names.has(name) || this.isTaken(name)) return false;
    this.#names.add(name);
    return true;
  }

  /** An IR holding only the collected declarations. */
  toIr(): Ir {
    return { ...emptyIr(), classes: this.classes, enums: this.enums, aliases: this.aliases };
  }
}

/** `work_history item` → `WorkHistoryItem`; a name that would start with a digit gets a `T`. */
export function toIdentifier(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const joined = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
  if (joined === "") return "Type";
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
}

/**
 * The name hint for a list's items: the singular of the list's key when it reads as a plural
 * (`sections` → `section`, `entities` → `entity`), else `<key> item`.
 */
export function itemHint(hint: string): string {
  if (/ies$/i.test(hint)) return `${hint.slice(0, -3)}y`;
  if (/[^s]s$/i.test(hint)) return hint.slice(0, -1);
  return `${hint} item`;
}
