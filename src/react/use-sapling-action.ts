import { useCallback, useMemo, useReducer, useRef } from "react";
import { readStream } from "../stream-client/index.js";
import type {
  ActionHookInput,
  ActionHookOutput,
  ActionSource,
  HookStatus,
  StreamChoice,
} from "./action-hook-types.js";
import { type HookError, toHookError } from "./sapling-action-error.js";
import { useCallSlot } from "./use-call-slot.js";

interface ActionState {
  status: "idle" | "pending" | "streaming" | "success" | "error";
  streamData: unknown;
  finalData: unknown;
  error: HookError | undefined;
}

type ActionEvent =
  | { type: "start" }
  | { type: "partial"; value: unknown }
  | { type: "final"; value: unknown }
  | { type: "error"; error: HookError }
  | { type: "reset" };

const idle: ActionState = { status: "idle", streamData: undefined, finalData: undefined, error: undefined };

function reduce(state: ActionState, event: ActionEvent): ActionState {
  switch (event.type) {
    case "start":
      return { ...idle, status: "pending" };
    case "partial":
      return { ...state, status: "streaming", streamData: event.value };
    case "final":
      return { ...state, status: "success", finalData: event.value };
    case "error":
      return { ...state, status: "error", error: event.error };
    case "reset":
      return idle;
  }
}

/**
 * The hook behind every generated `use{Fn}()`: runs a function through an `ActionSource` (server actions,
 * or `sapling serve` over HTTP) and keeps BAML's hook state. Streaming unless `stream: false`; partials
 * are read with `readStream`, so a slow render gets the latest partial, never a backlog. A new `mutate`,
 * `reset()` or unmounting aborts the call in flight (its stream is cancelled, which ends the model call
 * behind an HTTP transport) and its late results are dropped.
 */
export function useSaplingAction<Arguments extends unknown[], Partial, Final>(
  source: ActionSource<Arguments, Final>,
  props: ActionHookInput<Partial, Final, { stream: false }>,
): ActionHookOutput<Arguments, Partial, Final, { stream: false }>;
export function useSaplingAction<Arguments extends unknown[], Partial, Final>(
  source: ActionSource<Arguments, Final>,
  props?: ActionHookInput<Partial, Final, { stream?: true }>,
): ActionHookOutput<Arguments, Partial, Final, { stream: true }>;
export function useSaplingAction<Arguments extends unknown[], Partial, Final>(
  source: ActionSource<Arguments, Final>,
  props: ActionHookInput<Partial, Final, StreamChoice> = {},
): ActionHookOutput<Arguments, Partial, Final, StreamChoice> {
  const [state, dispatch] = useReducer(reduce, idle);
  const streaming = props.stream !== false;
  // The latest options, read when a call reports: callbacks passed inline need not be memoized.
  const latest = useRef(props);
  latest.current = props;
  const slot = useCallSlot();

  const mutate = useCallback(
    async (...args: Arguments): Promise<Final | undefined> => {
      const call = slot.start();
      const live = call.live;
      dispatch({ type: "start" });
      try {
        let final: Final;
        if (!streaming) {
          final = await source.call(args, call.signal);
        } else {
          const response = await source.stream(args, call.signal);
          const reader = readStream<Partial, Final>(
            response instanceof Response ? response : new Response(response),
          );
          for await (const partial of reader) {
            if (!live()) break;
            dispatch({ type: "partial", value: partial });
            const options = latest.current as ActionHookInput<Partial, Final, { stream?: true }>;
            options.onStreamData?.(partial);
            options.onData?.(partial);
          }
          if (!live()) return undefined;
          final = await reader.getFinalResponse();
        }
        if (!live()) return undefined;
        dispatch({ type: "final", value: final });
        latest.current.onFinalData?.(final);
        (latest.current.onData as ((value: Final) => void) | undefined)?.(final);
        return final;
      } catch (error) {
        if (!live()) return undefined;
        const reported = toHookError(error);
        dispatch({ type: "error", error: reported });
        latest.current.onError?.(reported);
        return undefined;
      } finally {
        call.end();
      }
    },
    [source, streaming, slot],
  );

  const reset = useCallback(() => {
    slot.abort();
    dispatch({ type: "reset" });
  }, [slot]);

  return useMemo(() => {
    const status = state.status as HookStatus<StreamChoice>;
    return {
      data: (state.status === "streaming" ? state.streamData : state.finalData) as
        | Partial
        | Final
        | undefined,
      finalData: state.finalData as Final | undefined,
      streamData: streaming ? (state.streamData as Partial | undefined) : undefined,
      isLoading: status === "pending" || status === "streaming",
      isPending: status === "pending",
      isStreaming: status === "streaming",
      isSuccess: status === "success",
      isError: status === "error",
      error: state.error,
      status,
      mutate,
      reset,
    } as ActionHookOutput<Arguments, Partial, Final, StreamChoice>;
  }, [state, streaming, mutate, reset]);
}
