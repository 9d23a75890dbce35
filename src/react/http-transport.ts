import { createContext, createElement, type ReactNode, useContext, useMemo } from "react";
import type { ActionSource } from "./action-hook-types.js";
import { isRecord, SaplingActionError } from "./sapling-action-error.js";

/**
 * Where the HTTP hooks (`baml_client/react/http_hooks`) send their calls: a server with `sapling serve`'s
 * routes (`POST {baseUrl}/call/{Fn}` and `POST {baseUrl}/stream/{Fn}`): `sapling serve` itself, or routes of
 * the application's own server returning `b.Fn(...)` and `b.stream.Fn(...).toStreamable()` (docs/react.md).
 */
export interface SaplingHttpOptions {
  /** Prefix of the routes (default `""`: the page's own origin, e.g. behind a dev-server proxy). */
  baseUrl?: string;
  /** Extra request headers (an `Authorization` for `sapling serve --api-key`, say). */
  headers?: Record<string, string>;
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
}

const HttpContext = createContext<SaplingHttpOptions>({});

/** Sets the HTTP options of every HTTP hook below it. Without one, hooks call the page's own origin. */
export function SaplingProvider(props: SaplingHttpOptions & { children?: ReactNode }): ReactNode {
  const { children, baseUrl, headers, fetch: fetchFunction } = props;
  const value = useMemo(
    () => ({
      ...(baseUrl === undefined ? {} : { baseUrl }),
      ...(headers === undefined ? {} : { headers }),
      ...(fetchFunction === undefined ? {} : { fetch: fetchFunction }),
    }),
    [baseUrl, headers, fetchFunction],
  );
  return createElement(HttpContext.Provider, { value }, children);
}

/**
 * The source of one function over HTTP, with the options of the nearest `SaplingProvider`. Arguments are
 * sent as a JSON object named by `parameterNames` (media values as their `toJSON()`: `{ url }` or
 * `{ base64, media_type }`, which the server decodes); streams ask for the delta format, which
 * `readStream` rebuilds.
 */
export function useHttpSource<Arguments extends unknown[], Final>(
  functionName: string,
  parameterNames: readonly string[],
): ActionSource<Arguments, Final> {
  const options = useContext(HttpContext);
  const names = parameterNames.join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `names` stands for `parameterNames` (a new array each render).
  return useMemo(() => httpSource(functionName, parameterNames, options), [functionName, names, options]);
}

/** `useHttpSource` outside React: the calls a hook would make. */
export function httpSource<Arguments extends unknown[], Final>(
  functionName: string,
  parameterNames: readonly string[],
  options: SaplingHttpOptions = {},
): ActionSource<Arguments, Final> {
  const send = async (route: "call" | "stream", args: Arguments, signal: AbortSignal): Promise<Response> => {
    const body: Record<string, unknown> = {};
    parameterNames.forEach((name, position) => {
      if (args[position] !== undefined) body[name] = args[position];
    });
    const fetchFunction = options.fetch ?? fetch;
    return fetchFunction(`${options.baseUrl ?? ""}/${route}/${encodeURIComponent(functionName)}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: route === "stream" ? "application/vnd.sapling-delta+json" : "application/json",
        ...options.headers,
      },
      body: JSON.stringify(body),
      signal,
    });
  };
  return {
    call: async (args, signal) => {
      const response = await send("call", args, signal);
      const text = await response.text();
      const parsed = parseJson(text);
      if (!response.ok) {
        const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
        throw new SaplingActionError(
          error
            ? { status: response.status, ...error }
            : { status: response.status, message: `HTTP ${response.status}: ${text}` },
        );
      }
      if (parsed === undefined) {
        throw new SaplingActionError({
          status: response.status,
          message: `The answer is not JSON: ${text.slice(0, 200)}`,
        });
      }
      return parsed as Final;
    },
    stream: (args, signal) => send("stream", args, signal),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
