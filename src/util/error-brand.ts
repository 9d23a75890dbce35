/**
 * The one way an error class is recognized across copies of the package (two bundled copies have different
 * classes, so `instanceof` fails): the constructor marks the error with a registered symbol per class name,
 * and the class's static `isInstance` asks for it. A subclass's constructor adds its own mark after its
 * parent's, so `Parent.isInstance(child)` holds too. The symbols are `Symbol.for("sapling.error.<Name>")`.
 */

const marks = new Map<string, symbol>();

function markOf(name: string): symbol {
  let mark = marks.get(name);
  if (mark === undefined) {
    mark = Symbol.for(`sapling.error.${name}`);
    marks.set(name, mark);
  }
  return mark;
}

/** Marks `error` as an instance of the class `name` (call it in that class's constructor). */
export function markError(error: object, name: string): void {
  Object.defineProperty(error, markOf(name), { value: true, enumerable: false });
}

/** Whether `value` was marked as an instance of the class `name`, by any copy of the package. */
export function hasErrorMark(value: unknown, name: string): boolean {
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[markOf(name)] === true
  );
}
