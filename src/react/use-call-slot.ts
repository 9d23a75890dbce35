import { useEffect, useMemo, useRef } from "react";

/** One call started by `CallSlot.start`. */
export interface CallTicket {
  /** Aborted when another call starts, the slot is aborted, or the component unmounts. */
  readonly signal: AbortSignal;
  /** Whether this call is still the slot's own: its results may reach the state. */
  live(): boolean;
  /** The call ended; true when it was still the slot's own (so its loading state is to be cleared). */
  end(): boolean;
}

/** A hook's one call at a time. */
export interface CallSlot {
  /** Starts a call, aborting the one before. */
  start(): CallTicket;
  /** Aborts the call in flight, if any. */
  abort(): void;
}

/**
 * The call slot of a hook: starting a call aborts the one in flight, and unmounting aborts the last, so
 * late results of a superseded or abandoned call never reach the state (the hooks check `live()`).
 */
export function useCallSlot(): CallSlot {
  const current = useRef<AbortController | undefined>(undefined);
  useEffect(
    () => () => {
      current.current?.abort();
      current.current = undefined;
    },
    [],
  );
  return useMemo(
    () => ({
      start: () => {
        current.current?.abort();
        const controller = new AbortController();
        current.current = controller;
        return {
          signal: controller.signal,
          live: () => current.current === controller && !controller.signal.aborted,
          end: () => {
            if (current.current !== controller) return false;
            current.current = undefined;
            return true;
          },
        };
      },
      abort: () => {
        current.current?.abort();
        current.current = undefined;
      },
    }),
    [],
  );
}
