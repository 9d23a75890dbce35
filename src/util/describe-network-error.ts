/**
 * A failed `fetch` as one line, without stack noise: `fetch failed (ECONNREFUSED: connect ECONNREFUSED
 * 127.0.0.1:9)`, `terminated (other side closed)`. Undici hides the reason in `cause`; this brings it out.
 */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${error.message} (${typeof code === "string" ? `${code}: ` : ""}${cause.message})`;
  }
  return error.message;
}
