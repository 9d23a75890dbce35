/**
 * A throwaway redis-server for the queue tests and the batch benchmark: on 127.0.0.1, a free port, no
 * persistence. Resolves once it answers a PING; `stop()` kills it, `restart()` starts an empty one on the
 * same port (what a Redis without persistence is after a crash).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { connectRedis } from "../src/worker/index.js";

export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts a new, empty server on the same port; resolves once it answers. */
  restart(): Promise<void>;
}

/** A port on 127.0.0.1 that nothing listens on now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (address === null || typeof address === "string") throw new Error("no free port on 127.0.0.1");
  return address.port;
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error) =>
      reject(
        new Error(
          `redis-server could not start (${error.message}): install it with apt-get install redis-server`,
        ),
      ),
    );
    child.once("exit", (code) => reject(new Error(`redis-server exited at start (code ${code})`)));
  });
  const probe = connectRedis(`redis://127.0.0.1:${port}`);
  probe.on("error", () => {});
  try {
    await Promise.race([probe.ping(), failed]);
  } finally {
    probe.disconnect();
  }
  return child;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port);
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((done) => running.once("exit", done));
    running.kill("SIGKILL");
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      child = await launch(port);
    },
  };
}
