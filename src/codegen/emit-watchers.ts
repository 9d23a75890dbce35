import { banner } from "./module-text.js";

/**
 * `watchers.ts`: BAML's `watchers` namespace (`import { watchers } from "./baml_client"`). BAML fills it
 * with the `watch let` variables of expression functions; Sapling skips expression functions (decision
 * 0011), so it holds only the notification type, and the import keeps compiling.
 */
export function emitWatchers(): string {
  return `${banner()}/** A watched variable's new value (BAML's expression functions, which Sapling skips). */
export interface VarNotification<T> {
  variable_name: string;
  value: T;
  timestamp: string;
  function_name: string;
}
`;
}
