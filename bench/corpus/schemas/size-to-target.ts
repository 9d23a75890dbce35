/**
 * Grows a list-shaped value until its pretty JSON reaches a target size: the schemas share this so that
 * "2 KB" means the same thing for every schema (the pretty-printed value, before any garbling).
 */
import type { JsonValue } from "../json-value.js";

/**
 * Calls `build(count)` with growing counts and returns the value whose pretty JSON length is closest to
 * `targetBytes` (at least one element). `build` must be deterministic for a given count (it is given a
 * fresh sub-generator state by the caller), and bigger counts must give longer text.
 */
export function sizeToTarget(targetBytes: number, build: (count: number) => JsonValue): JsonValue {
  const size = (value: JsonValue): number => Buffer.byteLength(JSON.stringify(value, null, 2));
  let low = 1;
  let high = 1;
  while (size(build(high)) < targetBytes) {
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (size(build(middle)) < targetBytes) low = middle;
    else high = middle;
  }
  const lowValue = build(low);
  const highValue = build(high);
  return Math.abs(size(lowValue) - targetBytes) <= Math.abs(size(highValue) - targetBytes)
    ? lowValue
    : highValue;
}
