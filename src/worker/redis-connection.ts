import { Redis } from "ioredis";

/**
 * A Redis connection from a URL (`redis://user:password@host:6379/0`, or `rediss://` for TLS), as BullMQ
 * needs it: `maxRetriesPerRequest: null`, so that a blocking command is never cut by a retry limit.
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
