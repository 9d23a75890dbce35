import { childPath } from "../../coerce/coerce-result.js";
import type { Flag } from "../../flags.js";

/**
 * Two keys written differently that name the same map key (`"ADMIN"` and its alias `"administrator"`
 * for `map<Role, int>`): the last one's value is kept, as for a key written twice, but the entry the
 * first one gave is lost, so it is flagged rather than dropped without a word. `coerce-map.ts` applies
 * it to each entry in both modes; `written` maps each key of the value so far to the key as the answer
 * wrote it; `record` is false for an entry still being written (a stream asks again when it is
 * finished).
 */
export function keyCollision(
  written: Map<string, string>,
  key: string,
  rawKey: string,
  path: string,
  record = true,
): Flag | undefined {
  const before = written.get(key);
  if (record) written.set(key, rawKey);
  if (before === undefined || before === rawKey) return undefined;
  return {
    kind: "KeyCollision",
    path: childPath(path, key),
    detail: `the keys "${before}" and "${rawKey}" both read as "${key}"; kept the value of "${rawKey}"`,
  };
}
