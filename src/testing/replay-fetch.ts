/**
 * A fake `fetch` that replays recorded answers (a JSON body or an SSE transcript such as a `.chunks.txt`
 * fixture) without a network, split into byte chunks wherever the test says — including inside a UTF-8
 * sequence or between `\r` and `\n`. It honours the request's `AbortSignal` like a real `fetch`.
 */

/** One call the fake received. */
export interface ReplayCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The parsed JSON body (`undefined` when there was none). */
  body: unknown;
}

export interface ReplayResponse {
  status?: number;
  headers?: Record<string, string>;
  body: string;
  /** Byte offsets where the body is cut into chunks (default: one chunk). */
  splitAt?: readonly number[];
  /** Delay before each chunk after the first, in milliseconds. */
  chunkDelayMs?: number;
}

export type ReplayFetch = typeof fetch & { calls: ReplayCall[] };

export function createReplayFetch(
  respond: (call: ReplayCall) => ReplayResponse | Promise<ReplayResponse>,
): ReplayFetch {
  const calls: ReplayCall[] = [];
  const replay = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const call: ReplayCall = {
      url: typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      method: init.method ?? "GET",
      headers,
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const answer = await respond(call);
    if (signal?.aborted) throw signal.reason;
    const chunks = splitBytes(new TextEncoder().encode(answer.body), answer.splitAt ?? []);
    let index = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
      },
      async pull(controller) {
        if (index > 0 && answer.chunkDelayMs !== undefined) await delay(answer.chunkDelayMs);
        if (signal?.aborted) return;
        const chunk = chunks[index++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    });
    return new Response(stream, { status: answer.status ?? 200, headers: answer.headers ?? {} });
  };
  return Object.assign(replay as typeof fetch, { calls });
}

/** Cut points for `length` bytes drawn from a seeded generator (reproducible "random" chunking). */
export function randomSplitPoints(length: number, seed: number, averageChunk = 7): number[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const points: number[] = [];
  for (
    let offset = 1 + Math.floor(next() * averageChunk);
    offset < length;
    offset += 1 + Math.floor(next() * averageChunk * 2)
  ) {
    points.push(offset);
  }
  return points;
}

function splitBytes(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points].sort((left, right) => left - right)) {
    if (point <= start || point >= bytes.length) continue;
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  if (start < bytes.length || chunks.length === 0) chunks.push(bytes.subarray(start));
  return chunks;
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
