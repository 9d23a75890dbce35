/**
 * How long a provider asks us to wait: `retry-after-ms` (OpenAI), else `retry-after` as seconds or as an
 * HTTP date. The runtime's retry policy decides whether to honour it.
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Number(milliseconds.trim());
  const value = headers.get("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
