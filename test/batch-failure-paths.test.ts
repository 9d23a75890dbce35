/**
 * `sapling batch` when something around it is wrong: the provider batch endpoint out of reach, a second
 * run on the same output, a damaged checkpoint line, a key the provider refuses. Each must end in a clear
 * message and a proper exit code, never an internal error, a lost checkpoint or requests sent in vain.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { main } from "../src/cli/main.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";

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

beforeAll(async () => {
  server = await startMockLlmServer({
    respond: (request) => answer(`{"n": ${/item-(\d+)/.exec(request.promptText)?.[1] ?? -1}}`),
  });
  folder = await mkdtemp(join(tmpdir(), "sapling-batch-failures-"));
});
afterAll(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

/** Runs `sapling …` in its own project folder with no API key in the environment. */
async function sapling(project: string, argv: string[]) {
  const context = captureContext({ cwd: join(folder, project), env: {} });
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
