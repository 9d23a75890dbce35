/**
 * `sapling-llm/react`: what generated React hooks (`output_type "typescript/react"`) and applications need
 * in the browser — `useSaplingAction` behind each `use{Fn}()` (BAML's hook surface), the sources that reach
 * a function (Next.js server actions, or `sapling serve`'s routes over HTTP with `SaplingProvider`), and
 * `useSaplingObject`, the AI SDK's `useObject` shape over a route that streams Sapling partials. The only
 * room that imports `react`; it reads streams with `sapling-llm/stream-client` and never loads the runtime.
 */
export type {
  ActionHookInput,
  ActionHookOutput,
  ActionSource,
  HookStatus,
  NonStreamingHookStatus,
  StreamChoice,
  StreamingHookStatus,
} from "./action-hook-types.js";
export { httpSource, type SaplingHttpOptions, SaplingProvider, useHttpSource } from "./http-transport.js";
export { type HookError, SaplingActionError, toHookError } from "./sapling-action-error.js";
export { serverActionSource } from "./server-action-source.js";
export { useSaplingAction } from "./use-sapling-action.js";
export {
  type DeepPartialValue,
  type SaplingObjectHelpers,
  type SaplingObjectOptions,
  type SchemaOutput,
  useSaplingObject,
} from "./use-sapling-object.js";
