/**
 * `sapling batch` when something around it is wrong: the provider batch endpoint out of reach, a second
 * run on the same output, a damaged checkpoint line, a key the provider refuses. Each must end in a clear
 * message and a proper exit code, never an internal error, a lost checkpoint or requests sent in vain.
 */

import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { main } from "../src/cli/main.js";
import { answer, hang, type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";

const source = (baseUrl: string) => `
class Item {
  n int
}

client<llm> Gpt {
  provider openai
  options {
    base_url "${baseUrl}"
    model "gpt-4o-mini"
  }
}

function Read(text: string) -> Item {
  client Gpt
  prompt #"Read {{ text }} {{ ctx.output_format }}"#
}
`;

let server: MockLlmServer;
let folder: string;
/** While set, the mock never answers (a run stays in flight until interrupted). */
let hanging = false;

beforeAll(async () => {
  server = await startMockLlmServer({
    respond: (request) =>
      hanging ? hang() : answer(`{"n": ${/item-(\d+)/.exec(request.promptText)?.[1] ?? -1}}`),
  });
  folder = await mkdtemp(join(tmpdir(), "sapling-batch-failures-"));
});
afterAll(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

/** Runs `sapling …` in its own project folder with no API key in the environment. */
async function sapling(project: string, argv: string[], interrupted?: Promise<void>) {
  const context = captureContext({
    cwd: join(folder, project),
    env: {},
    ...(interrupted ? { interrupted } : {}),
  });
  const code = await main(argv, context);
  return { code, ...context.output() };
}

async function project(name: string, baseUrl: string, rowCount: number): Promise<void> {
  const directory = join(folder, name);
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, "main.baml"), source(baseUrl));
  await writeFile(
    join(directory, "rows.jsonl"),
    Array.from(
      { length: rowCount },
      (_, n) => `${JSON.stringify({ id: `r${n}`, text: `item-${n}` })}\n`,
    ).join(""),
  );
}

const batchArgs = ["batch", "Read", "--from", ".", "--input", "rows.jsonl", "--output", "out.jsonl"];

describe("sapling batch --mode provider-batch", () => {
  it("with the server out of reach and no key: the call's error, exit 1, no stack trace", async () => {
    const closed = await startMockLlmServer();
    const port = new URL(closed.url).port;
    await closed.close();
    await project("unreachable", `http://127.0.0.1:${port}/v1`, 2);
    const result = await sapling("unreachable", [
      ...batchArgs,
      "--mode",
      "provider-batch",
      "--progress",
      "none",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `sapling batch: Client "Gpt" (openai): uploading the batch file failed: the connection to http://127.0.0.1:${port}/v1/files failed: fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}). Check base_url and that the server is reachable.\n`,
    );
  });
});

describe("one sapling batch per output", () => {
  it("a second run on the same output is refused, naming the first; the lock goes with the first", async () => {
    await project("locked", server.baseUrls.openai, 3);
    hanging = true;
    let interrupt = () => {};
    const first = sapling(
      "locked",
      [...batchArgs, "--progress", "none"],
      new Promise<void>((resolve) => {
        interrupt = resolve;
      }),
    );
    const before = server.requests.length;
    // The first run is in flight once the mock has its three requests.
    for (let polls = 0; server.requests.length < before + 3 && polls < 500; polls += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const requestsBefore = server.requests.length;
    const second = await sapling("locked", [...batchArgs, "--progress", "none"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `^sapling batch: another sapling batch is writing .*out\\.jsonl: pid ${process.pid} on .+, started \\d{4}-.+ \\(sapling batch Read --from \\. --input rows\\.jsonl --output out\\.jsonl --progress none\\)\\. Wait for it to end or stop it`,
      ),
    );
    // The refused run sent nothing.
    expect(server.requests.length).toBe(requestsBefore);
    hanging = false;
    interrupt();
    expect((await first).code).toBe(130);
    const third = await sapling("locked", [...batchArgs, "--progress", "none"]);
    expect(third.code).toBe(0);
    expect(await readFile(join(folder, "locked", "out.jsonl"), "utf8")).toBe(
      '{"id":"r0","ok":true,"value":{"n":0},"raw":"{\\"n\\": 0}"}\n{"id":"r1","ok":true,"value":{"n":1},"raw":"{\\"n\\": 1}"}\n{"id":"r2","ok":true,"value":{"n":2},"raw":"{\\"n\\": 2}"}\n',
    );
    await expect(readFile(join(folder, "locked", "out.jsonl.lock"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("a lock left by a run that is no longer running is taken over, and says so", async () => {
    await project("stale", server.baseUrls.openai, 2);
    const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => gone.once("exit", resolve));
    await writeFile(
      join(folder, "stale", "out.jsonl.lock"),
      `${JSON.stringify({ pid: gone.pid, host: hostname(), startedAt: "2026-01-01T00:00:00.000Z", command: "sapling batch Read" })}\n`,
    );
    const result = await sapling("stale", [...batchArgs, "--progress", "none"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `took over the lock of out.jsonl left by pid ${gone.pid}, which is no longer running`,
    );
    await expect(readFile(join(folder, "stale", "out.jsonl.lock"), "utf8")).rejects.toThrow(/ENOENT/);
  });
});

describe("a damaged checkpoint", () => {
  it("one corrupt line is skipped and reported, and only its row runs again", async () => {
    await project("damaged", server.baseUrls.openai, 4);
    expect((await sapling("damaged", [...batchArgs, "--progress", "none"])).code).toBe(0);
    const path = join(folder, "damaged", "out.jsonl.checkpoint");
    const lines = (await readFile(path, "utf8")).split("\n");
    const damaged = lines.findIndex((line) => line.startsWith('{"result":{"id":"r2"'));
    // A line half overwritten, as a disk error or an editor leaves it, in the middle of the file.
    lines[damaged] = (lines[damaged] as string).slice(0, 20);
    await writeFile(path, lines.join("\n"));
    await rm(join(folder, "damaged", "out.jsonl"));
    const before = server.requests.length;
    const rerun = await sapling("damaged", [...batchArgs, "--progress", "none"]);
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain(
      `sapling batch: ${path}:${damaged + 1}: not JSON; skipped: the row it recorded runs again\n`,
    );
    expect(server.requests.slice(before).map((request) => /item-\d+/.exec(request.promptText)?.[0])).toEqual([
      "item-2",
    ]);
    expect((await readFile(join(folder, "damaged", "out.jsonl"), "utf8")).trimEnd().split("\n")).toHaveLength(
      4,
    );
  });
});
