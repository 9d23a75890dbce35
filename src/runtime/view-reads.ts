import type { StreamPush } from "../sap/index.js";

/**
 * A stream parser's `read` whose partials are seen through `view` (the function's shape of the value:
 * unwrapped from a tool's wrapper, `@check` results wrapped). `view` runs once per partial the parser calls
 * changed (and on the first read); `changed` and `flags` pass through as the parser decided them, and an
 * unchanged read gives the value viewed before, so "is it new?" stays the parser's answer.
 */
export function viewReads(read: () => StreamPush, view: (value: unknown) => unknown): () => StreamPush {
  let viewed: { value: unknown } | undefined;
  return () => {
    const push = read();
    if (viewed !== undefined && !push.changed) return { changed: false, value: viewed.value };
    viewed = { value: view(push.value) };
    return push.flags === undefined
      ? { changed: push.changed, value: viewed.value }
      : { changed: push.changed, value: viewed.value, flags: push.flags };
  };
}
