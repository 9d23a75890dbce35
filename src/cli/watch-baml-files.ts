import { watch } from "node:fs";

/** Milliseconds to wait after a change before reacting, so an editor's burst of writes counts once. */
const WATCH_DEBOUNCE_MS = 100;

/**
 * Calls `onChange` after each burst of changes to `.baml` files under `folder` (recursively), as
 * `generate --watch` and `sapling dev` react to saves. Returns the function that stops watching.
 */
export function watchBamlFiles(folder: string, onChange: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = watch(folder, { recursive: true }, (_event, file) => {
    if (file !== null && !String(file).endsWith(".baml")) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, WATCH_DEBOUNCE_MS);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
