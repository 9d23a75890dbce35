/** Exhaustiveness check for closed unions: a new variant becomes a compile error here. */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
