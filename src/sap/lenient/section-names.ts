import type { IrIndex, Type } from "../../ir/index.js";
import { normalizeWords } from "../kinds/enum/normalize-words.js";

/**
 * The names that may open a section of an answer (`readSections`): the fields a class declares, by the
 * key the model was shown (`@alias`, else the name), matched ignoring case, spacing and punctuation
 * (`Final Answer`, `final_answer`, `finalAnswer`). Built from the target type, so prose with other
 * labels, tags or headings never opens one.
 */
export interface SectionNames {
  /** Normalized words of the key (`normalizeWords`, joined by a space) → the field. */
  readonly fields: ReadonlyMap<string, SectionField>;
  /**
   * The classes the names are of, normalized as keys: a tag naming one (`<Address>` around the fields of
   * `Address`, as BAML's XML output format writes a class value) wraps the sections, and is no section.
   */
  readonly wrappers: ReadonlySet<string>;
  /**
   * The classes' names as declared: a tag written exactly so (`<Answer>`) wraps the sections even when a
   * field's key is the same word in another case (`class Answer { answer string }`, whose XML is
   * `<Answer><answer>…</answer></Answer>`).
   */
  readonly classNames: ReadonlySet<string>;
  /** The longest normalized key, so a line being written is known not to open a section past it. */
  readonly longest: number;
  /**
   * The target is a list (no fields): its answer may be written as tags, one tag around repeated item
   * tags (`<list><item>a</item>…</list>`, as BAML's XML output format writes a list) or the item tags
   * alone, each item's content read as this field (`readListTags`).
   */
  readonly items?: SectionField;
  /**
   * The target is a map (no fields): its answer may be written as BAML's XML output format writes a map,
   * `<entry><key>k</key><value>v</value></entry>` tags, maybe inside one tag such as `<map>`; each value's
   * content read as this field (`readMapTags`).
   */
  readonly entries?: SectionField;
}

export interface SectionField {
  /** The key the model was shown. */
  key: string;
  /** The field holds a list (repeated sections of it, or repeated child tags, are its items). */
  list: boolean;
  /**
   * The field holds text (`string`, seen through optional and alias): its section's value is the text as
   * written, over blank lines, up to the next section (`Sections`).
   */
  text: boolean;
  /** The names inside the field, when its type is (or holds) a class: read for nested sections. */
  readonly inner: SectionNames | undefined;
  /** The field holds a map: its values, when written as XML entries, are read as this field. */
  readonly values?: SectionField;
  /**
   * A section named by the answer's form, not by the field: ReAct's `Action Input:` gives the one field
   * of a one-field class its value (see `REACT_INPUT`). Its entry is keyed by the field.
   */
  readonly implied?: boolean;
}

/**
 * ReAct agents (LangChain's ReAct prompt, and the many written after it) end a step with
 * `Action: tool⏎Action Input: value`: for a one-field class, that value is the field's.
 */
const REACT_INPUT = "action input";

/** A key as sections match it: its words, lower case, joined by a space. */
export function sectionKey(written: string): string {
  return normalizeWords(written).join(" ");
}

const perIndex = new WeakMap<IrIndex, WeakMap<Type, SectionNames | null>>();

/**
 * The section names of `type`: the fields of every class it may be (through optional, union and alias),
 * no fields but `items` for a list (of scalars or classes: its answer may be item tags), or undefined
 * otherwise (scalars, maps, lists of lists: no names to open a section). Cached per IR and type.
 */
export function sectionNamesOf(type: Type, index: IrIndex): SectionNames | undefined {
  let known = perIndex.get(index);
  if (known === undefined) {
    known = new WeakMap();
    perIndex.set(index, known);
  }
  const cached = known.get(type);
  if (cached !== undefined) return cached ?? undefined;
  let names: SectionNames | undefined;
  try {
    names = build(type, index, new Map());
  } catch {
    // A type naming a declaration the IR lacks: the coercers report it; no sections to read.
    names = undefined;
  }
  known.set(type, names ?? null);
  return names;
}

/** The class names `type` may be, directly (not inside lists or maps). */
function classesOf(type: Type, index: IrIndex, into: string[], seen: Set<string>): void {
  switch (type.kind) {
    case "class":
      if (!into.includes(type.name)) into.push(type.name);
      return;
    case "optional":
      classesOf(type.inner, index, into, seen);
      return;
    case "union":
      for (const option of type.options) classesOf(option, index, into, seen);
      return;
    case "alias":
      if (seen.has(type.name)) return;
      seen.add(type.name);
      classesOf(index.getAlias(type.name).type, index, into, seen);
      return;
    default:
      return;
  }
}

/**
 * A field's type seen through optional and alias: a list, text (`string`), and the classes of its items
 * or itself.
 */
function fieldShape(
  type: Type,
  index: IrIndex,
): { list: boolean; text: boolean; classes: string[]; item?: Type; value?: Type } {
  let inner = type;
  const seen = new Set<string>();
  for (;;) {
    if (inner.kind === "optional") inner = inner.inner;
    else if (inner.kind === "alias" && !seen.has(inner.name)) {
      seen.add(inner.name);
      inner = index.getAlias(inner.name).type;
    } else break;
  }
  const classes: string[] = [];
  if (inner.kind === "list") {
    classesOf(inner.item, index, classes, new Set());
    return { list: true, text: false, classes, item: inner.item };
  }
  if (inner.kind === "map") return { list: false, text: false, classes, value: inner.value };
  classesOf(inner, index, classes, new Set());
  return { list: false, text: inner.kind === "primitive" && inner.name === "string", classes };
}

const NO_FIELDS: SectionNames = { fields: new Map(), wrappers: new Set(), classNames: new Set(), longest: 0 };

/** Built once per set of classes; a class inside itself (recursion) shares the one being built. */
function build(type: Type, index: IrIndex, built: Map<string, SectionNames>): SectionNames | undefined {
  const classes: string[] = [];
  classesOf(type, index, classes, new Set());
  if (classes.length > 0) return namesOfClasses(classes, index, built);
  // A list target: its items may be tags; a map target: its entries may be `<entry>` tags (a union with
  // a list or a map is not read so).
  const shape = fieldShape(type, index);
  if (shape.value !== undefined)
    return { ...NO_FIELDS, entries: fieldOf("value", shape.value, index, built) };
  if (shape.item === undefined) return undefined;
  return { ...NO_FIELDS, items: fieldOf("item", shape.item, index, built) };
}

/**
 * The field of a list's items or a map's values, keyed `key`: a list of them is read from repeated tags
 * (a list of lists from item tags inside item tags), their classes' names inside them.
 */
function fieldOf(key: string, type: Type, index: IrIndex, built: Map<string, SectionNames>): SectionField {
  const shape = fieldShape(type, index);
  const values = shape.value === undefined ? undefined : fieldOf("value", shape.value, index, built);
  return {
    key,
    list: shape.list,
    text: shape.text,
    inner: namesOfClasses(shape.classes, index, built),
    values,
  };
}

function namesOfClasses(
  classes: string[],
  index: IrIndex,
  built: Map<string, SectionNames>,
): SectionNames | undefined {
  if (classes.length === 0) return undefined;
  const id = classes.join("|");
  const done = built.get(id);
  if (done) return done;
  const fields = new Map<string, SectionField>();
  const wrappers = new Set(classes.map(sectionKey).filter((key) => key !== ""));
  let longest = 0;
  const names: SectionNames = {
    fields,
    wrappers,
    classNames: new Set(classes),
    get longest() {
      return longest;
    },
  };
  built.set(id, names);
  for (const name of classes) {
    for (const field of index.getClass(name).fields) {
      if (field.skip) continue;
      const key = field.alias ?? field.name;
      const normal = sectionKey(key);
      if (normal === "" || fields.has(normal)) continue;
      const shape = fieldShape(field.type, index);
      let inner: SectionNames | undefined;
      let resolved = false;
      const value = shape.value;
      let values: SectionField | undefined;
      fields.set(normal, {
        key,
        list: shape.list,
        text: shape.text,
        get inner() {
          if (!resolved) inner = namesOfClasses(shape.classes, index, built);
          resolved = true;
          return inner;
        },
        // (Built once, when first asked: a map field's values are read at every one of its entries.)
        get values() {
          if (value !== undefined && values === undefined) values = fieldOf("value", value, index, built);
          return values;
        },
      });
      longest = Math.max(longest, normal.length);
    }
  }
  const only = fields.size === 1 && classes.length === 1 ? [...fields.values()][0] : undefined;
  if (only !== undefined && !fields.has(REACT_INPUT)) {
    fields.set(REACT_INPUT, {
      key: only.key,
      list: only.list,
      text: only.text,
      implied: true,
      get inner() {
        return only.inner;
      },
      get values() {
        return only.values;
      },
    });
    longest = Math.max(longest, REACT_INPUT.length);
  }
  return names;
}
