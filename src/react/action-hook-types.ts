import type { HookError } from "./sapling-action-error.js";

/** The `stream` choice a hook was given: streaming unless `stream: false`, as BAML's hooks. */
export interface StreamChoice {
  stream?: boolean;
}

export type NonStreamingHookStatus = "idle" | "pending" | "success" | "error";
export type StreamingHookStatus = NonStreamingHookStatus | "streaming";

export type HookStatus<Options extends StreamChoice = { stream?: true }> = Options["stream"] extends false
  ? NonStreamingHookStatus
  : StreamingHookStatus;

/**
 * The options of a generated `use{Fn}()` hook, the same as BAML's: `stream` (default true), and callbacks
 * for each partial (`onStreamData`), the final value (`onFinalData`), both (`onData`) and a failure
 * (`onError`).
 */
export interface ActionHookInput<Partial, Final, Options extends StreamChoice = { stream?: true }> {
  stream?: Options["stream"];
  onStreamData?: Options["stream"] extends false ? never : (response?: Partial) => void;
  onFinalData?: (response?: Final) => void;
  onData?: (response?: Options["stream"] extends false ? Final : Partial) => void;
  onError?: (error: HookError) => void;
}

/**
 * What a generated `use{Fn}()` hook returns, the same as BAML's: `data` (the latest partial while it
 * streams, then the final value), `streamData`, `finalData`, the status flags, `error`, `mutate(...args)`
 * to run the function and `reset()`. `mutate` resolves with the final value, or `undefined` when the call
 * failed (the failure is in `error`) or was superseded, reset or unmounted.
 */
export interface ActionHookOutput<
  Arguments extends unknown[],
  Partial,
  Final,
  Options extends StreamChoice = { stream?: true },
> {
  data?: (Options["stream"] extends false ? Final : Partial) | undefined;
  finalData?: Final | undefined;
  streamData?: (Options["stream"] extends false ? never : Partial) | undefined;
  isLoading: boolean;
  isPending: boolean;
  isStreaming: Options["stream"] extends false ? never : boolean;
  isSuccess: boolean;
  isError: boolean;
  error?: HookError | undefined;
  status: HookStatus<Options>;
  mutate: (...args: Arguments) => Promise<Final | undefined>;
  reset: () => void;
}

/**
 * How a hook reaches its function: `call` for `stream: false`, `stream` for the rest (a `ReadableStream` of
 * `toStreamable()` lines, as a server action returns, or a `fetch` response of `sapling serve`'s
 * `/stream`). `signal` aborts when the hook unmounts, resets or starts another call.
 */
export interface ActionSource<Arguments extends unknown[], Final> {
  call(args: Arguments, signal: AbortSignal): Promise<Final>;
  stream(args: Arguments, signal: AbortSignal): Promise<ReadableStream<Uint8Array> | Response>;
}
