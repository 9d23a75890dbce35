import type { ActionSource } from "./action-hook-types.js";

/**
 * The source of a generated hook in a Next.js app: the function's two server actions (`server.ts` calls it,
 * `server_streaming.ts` returns its `toStreamable()` lines). A server action takes no `AbortSignal`, so an
 * abort cancels the returned stream (the hook stops reading it) rather than the request.
 */
export function serverActionSource<Arguments extends unknown[], Final>(
  call: (...args: Arguments) => Promise<Final>,
  stream: (...args: Arguments) => Promise<ReadableStream<Uint8Array>>,
): ActionSource<Arguments, Final> {
  return {
    call: (args) => call(...args),
    stream: (args) => stream(...args),
  };
}
