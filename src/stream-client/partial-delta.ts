/**
 * The delta format of a stream: each event carries only what changed since the previous one, as a list of
 * operations on the partial value a reader holds (it starts with nothing):
 *
 * - `["+", path, text]`: append `text` to the string at `path` (a string being written grew).
 * - `["+", path, [items…]]`: append the items to the list at `path` (new list items).
 * - `["=", path, value]`: put `value` at `path` — a field that appeared or completed, a scalar that changed,
 *   anything that did not just grow. `path` `[]` replaces the whole value.
 * - `"text"` (a bare string): append `text` to the string written last — the path of the latest operation,
 *   in this event or an earlier one, whose value was a string. The common event is one of these.
 *
 * A path is a list of object keys (strings) and list indexes (numbers) from the root. Partials grow at
 * their end, so a delta is usually one append; what it costs over a whole stream is about the text of the
 * answer, however often partials are sent. The same two functions run on the server (`diffPartial`) and in
 * `readStream` (`applyDelta`), each with the stream's `DeltaCursor`, so both sides agree by construction.
 */
export type DeltaPath = (string | number)[];
export type DeltaOperation = ["+", DeltaPath, string | unknown[]] | ["=", DeltaPath, unknown] | string;

/** The path of the string written last, kept by both ends of one stream (one per stream, start empty). */
export interface DeltaCursor {
  path?: DeltaPath;
}

/**
 * The operations that turn `before` into `after` (`before` `undefined`: the reader holds nothing yet).
 * `cursor` is the stream's, updated here: appends to the string written last become bare strings.
 */
export function diffPartial(before: unknown, after: unknown, cursor: DeltaCursor = {}): DeltaOperation[] {
  const operations: FullOperation[] = [];
  if (before === undefined) operations.push(["=", [], after]);
  else diffInto(before, after, [], operations);
  return operations.map((operation): DeltaOperation => {
    const [kind, path, argument] = operation;
    if (typeof argument !== "string") return operation;
    const short = kind === "+" && cursor.path !== undefined && samePath(cursor.path, path);
    cursor.path = path;
    return short ? argument : operation;
  });
}

function samePath(left: DeltaPath, right: DeltaPath): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

function diffInto(before: unknown, after: unknown, path: DeltaPath, operations: FullOperation[]): void {
  // Unchanged subtrees keep their identity between partials: most of a partial is skipped here.
  if (before === after) return;
  if (typeof before === "string" && typeof after === "string") {
    if (after.startsWith(before)) operations.push(["+", path, after.slice(before.length)]);
    else operations.push(["=", path, after]);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (after.length < before.length) {
      operations.push(["=", path, after]);
      return;
    }
    for (let index = 0; index < before.length; index++) {
      const item = after[index];
      if (before[index] !== item) diffInto(before[index], item, [...path, index], operations);
    }
    if (after.length > before.length) operations.push(["+", path, after.slice(before.length)]);
    return;
  }
  if (isRecord(before) && isRecord(after)) {
    for (const key in before) {
      // A field that went away (another reading of the answer won): the object is replaced.
      if (!Object.hasOwn(after, key)) {
        operations.push(["=", path, after]);
        return;
      }
    }
    for (const key in after) {
      if (!Object.hasOwn(before, key)) operations.push(["=", [...path, key], after[key]]);
      else if (before[key] !== after[key]) diffInto(before[key], after[key], [...path, key], operations);
    }
    return;
  }
  if (!sameScalar(before, after)) operations.push(["=", path, after]);
}

/**
 * Applies `operations` to `value` and returns the new value. Containers on the changed paths are copied,
 * never mutated, so a value handed out before stays as it was (as partials from the runtime do). Throws on
 * an operation that does not fit the value (a path through a missing container, text appended to a
 * non-string): the stream is not the one this value was rebuilt from.
 */
export function applyDelta(
  value: unknown,
  operations: readonly DeltaOperation[],
  cursor: DeltaCursor = {},
): unknown {
  let result = value;
  // Containers copied by this call: later operations of the same delta change them in place.
  const fresh = new WeakSet<object>();
  for (const given of operations) {
    let operation: FullOperation;
    if (typeof given === "string") {
      if (cursor.path === undefined) throw new Error("Delta appends text before any string was written.");
      operation = ["+", cursor.path, given];
    } else if (
      Array.isArray(given) &&
      (given[0] === "+" || given[0] === "=") &&
      Array.isArray(given[1]) &&
      given.length === 3
    ) {
      operation = given;
      if (typeof operation[2] === "string") cursor.path = operation[1];
    } else {
      throw new Error(`Not a delta operation: ${JSON.stringify(given)}.`);
    }
    result = applyAt(result, operation, 0, fresh);
  }
  return result;
}

type FullOperation = Exclude<DeltaOperation, string>;

function applyAt(value: unknown, operation: FullOperation, depth: number, fresh: WeakSet<object>): unknown {
  const [kind, path, argument] = operation;
  if (depth === path.length) {
    if (kind === "=") return argument;
    if (typeof value === "string" && typeof argument === "string") return value + argument;
    if (Array.isArray(value) && Array.isArray(argument)) {
      if (fresh.has(value)) {
        for (const item of argument) value.push(item);
        return value;
      }
      const copy = value.concat(argument);
      fresh.add(copy);
      return copy;
    }
    const what = Array.isArray(argument) ? "items" : "text";
    const holder = Array.isArray(argument) ? "list" : "string";
    throw new Error(`Delta appends ${what} at ${JSON.stringify(path)}, which holds no ${holder}.`);
  }
  const key = path[depth];
  if (
    Array.isArray(value) &&
    Number.isInteger(key) &&
    (key as number) >= 0 &&
    (key as number) < value.length
  ) {
    const copy = fresh.has(value) ? value : value.slice();
    fresh.add(copy);
    copy[key as number] = applyAt(value[key as number], operation, depth + 1, fresh);
    return copy;
  }
  if (isRecord(value) && typeof key === "string") {
    // Own fields only: a key such as `__proto__` is data, never the prototype.
    const current = Object.hasOwn(value, key) ? value[key] : undefined;
    const copy = fresh.has(value) ? value : { ...value };
    fresh.add(copy);
    Object.defineProperty(copy, key, {
      value: applyAt(current, operation, depth + 1, fresh),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return copy;
  }
  throw new Error(`Delta path ${JSON.stringify(path)} does not fit the value rebuilt so far.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Scalars and containers of different kinds: equal only when their JSON is (NaN never appears in JSON). */
function sameScalar(left: unknown, right: unknown): boolean {
  return (typeof left !== "object" || left === null) && left === right;
}
