import { useCallback, useRef, useState } from "react";
import { readStream } from "../stream-client/index.js";
// Types only: the schema rooms' partial type. A value import would load the parser into the page
// (test/entry-import-graph.test.ts holds sapling-llm/react to `react` alone).
import type { PartialOf } from "../typed-schema/index.js";
import { type HookError, toHookError } from "./sapling-action-error.js";
import { useCallSlot } from "./use-call-slot.js";

/** The type a schema describes: Zod's output type (read from `_zod`), otherwise what the caller says. */
export type SchemaOutput<Schema> = Schema extends { _zod: { output: infer Output } } ? Output : unknown;

/**
 * A partial value of `T` as Sapling streams it: fields not written yet are missing or `null`, lists hold the
 * items so far, strings the text so far (the `PartialOf` of `sapling-llm/zod`).
 */
export type DeepPartialValue<T> = PartialOf<T>;

/** Options of `useSaplingObject`, as the AI SDK's `useObject` takes them. */
export interface SaplingObjectOptions<Schema, Result> {
  /** The route that answers with `streamObjectResponse` (`sapling-llm/object-stream`). */
  api: string;
  /** The Zod or JSON Schema the route parses toward; here it gives the value its type. */
  schema: Schema;
  /** Shown before the first partial (and after `clear()`). */
  initialValue?: DeepPartialValue<Result>;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** Called when the stream ended: with the final value, or with the error that ended it. */
  onFinish?: (event: { object: Result | undefined; error: HookError | undefined }) => void;
  /** Called when the request or the parse failed. */
  onError?: (error: HookError) => void;
}

/** What `useSaplingObject` returns: the AI SDK's `useObject` shape. */
export interface SaplingObjectHelpers<Result, Input> {
  /** The latest partial value while it streams, then the final value. */
  object: DeepPartialValue<Result> | undefined;
  /** Sends `input` as the JSON body of a POST to `api`, and streams the answer into `object`. */
  submit: (input: Input) => Promise<void>;
  isLoading: boolean;
  /** The failure (a `SaplingActionError` with `rawOutput` when the answer held no value of the schema). */
  error: HookError | undefined;
  /** Aborts the request in flight; `object` keeps what arrived. */
  stop: () => void;
  /** Aborts, and empties `object` and `error`. */
  clear: () => void;
}

/**
 * The AI SDK's `useObject` for Sapling: a route streams partials parsed by Sapling (fenced, chatty or
 * truncated answers included), and `object` follows them. Unmounting aborts the request.
 */
export function useSaplingObject<Schema, Result = SchemaOutput<Schema>, Input = unknown>(
  options: SaplingObjectOptions<Schema, Result>,
): SaplingObjectHelpers<Result, Input> {
  const [object, setObject] = useState<DeepPartialValue<Result> | undefined>(options.initialValue);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<HookError | undefined>(undefined);
  const latest = useRef(options);
  latest.current = options;
  const slot = useCallSlot();

  const submit = useCallback(
    async (input: Input): Promise<void> => {
      const call = slot.start();
      const live = call.live;
      const settings = latest.current;
      setError(undefined);
      setLoading(true);
      try {
        const response = await (settings.fetch ?? fetch)(settings.api, {
          method: "POST",
          headers: { "content-type": "application/json", ...settings.headers },
          body: JSON.stringify(input),
          signal: call.signal,
        });
        const reader = readStream<DeepPartialValue<Result>, Result>(response);
        for await (const partial of reader) {
          if (!live()) break;
          setObject(partial);
        }
        if (!live()) return;
        const final = await reader.getFinalResponse();
        if (!live()) return;
        setObject(final as DeepPartialValue<Result>);
        latest.current.onFinish?.({ object: final, error: undefined });
      } catch (failure) {
        if (!live()) return;
        const reported = toHookError(failure);
        setError(reported);
        latest.current.onError?.(reported);
        latest.current.onFinish?.({ object: undefined, error: reported });
      } finally {
        if (call.end()) setLoading(false);
      }
    },
    [slot],
  );

  const stop = useCallback(() => {
    slot.abort();
    setLoading(false);
  }, [slot]);

  const clear = useCallback(() => {
    stop();
    setObject(latest.current.initialValue);
    setError(undefined);
  }, [stop]);

  return { object, submit, isLoading, error, stop, clear };
}
