/**
 * Minijinja keeps ints and floats apart (`{{ 2.0 }}` prints `2.0`, `{{ 4 / 2 }}` prints `2.0`), JS numbers
 * do not. A float whose value is integral is therefore boxed as `IntegralFloat`; every other number is a
 * plain JS number (an int when integral, a float otherwise). Use these helpers wherever a template value
 * may be a number.
 */
export class IntegralFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
}

export type Numeric = number | IntegralFloat;

export function isNumeric(value: unknown): value is Numeric {
  return typeof value === "number" || value instanceof IntegralFloat;
}

export function toNumber(value: Numeric): number {
  return typeof value === "number" ? value : value.value;
}

export function isFloat(value: unknown): boolean {
  return value instanceof IntegralFloat || (typeof value === "number" && !Number.isInteger(value));
}

/** A float result: boxed when integral, so it keeps printing as `3.0`. */
export function float(value: number): Numeric {
  return Number.isInteger(value) ? new IntegralFloat(value) : value;
}

/** How Rust prints the number (`3`, `3.0`, `0.30000000000000004`, `inf`). */
export function formatNumeric(value: Numeric): string {
  const number = toNumber(value);
  if (Number.isNaN(number)) return "NaN";
  if (!Number.isFinite(number)) return number > 0 ? "inf" : "-inf";
  if (value instanceof IntegralFloat) return Object.is(number, -0) ? "-0.0" : `${number}.0`;
  return String(number);
}

/** Python/Minijinja arithmetic: int op int stays int (except `/`), anything with a float is a float. */
export function arithmetic(operator: string, left: Numeric, right: Numeric): Numeric | undefined {
  const a = toNumber(left);
  const b = toNumber(right);
  const floating = isFloat(left) || isFloat(right);
  const result = (value: number): Numeric => (floating ? float(value) : value);
  switch (operator) {
    case "+":
      return result(a + b);
    case "-":
      return result(a - b);
    case "*":
      return result(a * b);
    case "/":
      return float(a / b);
    case "//":
      return result(Math.floor(a / b));
    case "%":
      return result(((a % b) + b) % b);
    case "**":
      return floating || b < 0 ? float(a ** b) : a ** b;
    default:
      return undefined;
  }
}
