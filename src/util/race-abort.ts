/**
 * `promise`, or a rejection with `reasonToError(signal.reason)` as soon as `signal` aborts — for work that
 * cannot be cancelled itself (a body that ignores the fetch signal, a token request shared with other
 * callers). The promise keeps running; its own later rejection is not reported as unhandled.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  reasonToError: (reason: unknown) => unknown = (reason) => reason,
): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(reasonToError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonToError(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
