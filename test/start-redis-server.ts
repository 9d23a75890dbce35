/**
 * A throwaway redis-server for the queue test and the batch benchmark: on 127.0.0.1, a free port, no
 * persistence. Resolves once it answers a PING; `stop()` kills it.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { connectRedis } from "../src/worker/index.js";

export interface RedisServer {
  url: string;
  stop(): void;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (address === null || typeof address === "string") throw new Error("no free port on 127.0.0.1");
  return address.port;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const failed = new Promise<never>((_, reject) =>
    child.once("error", (error) =>
      reject(
        new Error(
          `redis-server could not start (${error.message}): install it with apt-get install redis-server`,
        ),
      ),
    ),
  );
  const url = `redis://127.0.0.1:${port}`;
  const probe = connectRedis(url);
  probe.on("error", () => {});
  try {
    await Promise.race([probe.ping(), failed]);
  } finally {
    probe.disconnect();
  }
  return { url, stop: () => child.kill("SIGKILL") };
}
