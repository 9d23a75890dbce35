import { Redis } from "ioredis";
import { hasErrorMark, markError } from "../util/index.js";

/**
 * A Redis connection from a URL (`redis://user:password@host:6379/0`, or `rediss://` for TLS), as BullMQ
 * needs it: `maxRetriesPerRequest: null`, so that a blocking command is never cut by a retry limit. That
 * also means a command waits as long as Redis is out of reach: call `waitForRedis` before relying on it.
 */
export function connectRedis(url: string): Redis {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      `not a Redis URL: ${JSON.stringify(url)}. Pass redis://[user:password@]host:port[/db], or rediss:// for TLS`,
    );
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new Error(`a Redis URL starts with redis:// or rediss:// (TLS), got ${parsed.protocol}//`);
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

/** A Redis URL fit to print: the password masked (`redis://user:***@host:6379/0`). */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(an unreadable Redis URL)";
  }
}

/** Redis did not answer in time: the message names the address tried and the last connection error. */
export class RedisUnreachableError extends Error {
  constructor(
    readonly address: string,
    readonly timeoutMs: number,
    detail: string | undefined,
  ) {
    super(
      `cannot reach Redis at ${address} within ${timeoutMs / 1000} s${detail ? ` (${detail})` : ""}. Start Redis there, or name the right one with --redis URL or REDIS_URL.`,
    );
    this.name = "RedisUnreachableError";
    markError(this, "RedisUnreachableError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is RedisUnreachableError {
    return hasErrorMark(value, "RedisUnreachableError");
  }
}

/**
 * Resolves once the connection is ready; rejects with `RedisUnreachableError` after `timeoutMs` without
 * it (the client keeps retrying in the meantime, so a Redis that comes up within the time is taken), or
 * with the signal's reason when the signal fires first.
 */
export function waitForRedis(
  redis: Redis,
  url: string,
  options: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise<void>((resolve, reject) => {
    let lastError: string | undefined;
    const onError = (error: Error & { code?: string }) => {
      lastError =
        error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message;
    };
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      redis.off("ready", onReady);
      redis.off("error", onError);
      options.signal?.removeEventListener("abort", onAbort);
      settle();
    };
    const onReady = () => finish(resolve);
    const onAbort = () => finish(() => reject(options.signal?.reason));
    const timer = setTimeout(
      () => finish(() => reject(new RedisUnreachableError(redisAddress(url), timeoutMs, lastError))),
      timeoutMs,
    );
    redis.on("ready", onReady);
    redis.on("error", onError);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Says when the connection to Redis is lost and when it is back, once each (the client retries on its own
 * meanwhile, and commands wait), instead of staying silent while nothing moves.
 */
export function watchRedis(redis: Redis, address: string, log: (line: string) => void): void {
  let state: "connecting" | "ready" | "lost" = redis.status === "ready" ? "ready" : "connecting";
  const lost = (detail: string) => {
    if (state !== "ready") return;
    state = "lost";
    log(`lost the connection to Redis at ${address}${detail}; retrying, Ctrl-C stops`);
  };
  redis.on("error", (error: Error) => lost(` (${error.message})`));
  redis.on("close", () => lost(""));
  redis.on("ready", () => {
    if (state === "lost") log(`Redis at ${address} answers again`);
    state = "ready";
  });
}
