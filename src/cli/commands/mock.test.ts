import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const source = `
class Person {
  name string
  age int
}

client<llm> Real {
  provider openai
  options {
    model "gpt-4o-mini"
    api_key env.OPENAI_API_KEY
  }
}

function ExtractPerson(text: string) -> Person {
  client Real
  prompt #"
    Extract: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

function project(answers: unknown): string {
  const root = mkdtempSync(join(tmpdir(), "sapling-mock-"));
  mkdirSync(join(root, "baml_src"));
  writeFileSync(join(root, "baml_src", "main.baml"), source);
  writeFileSync(join(root, "answers.json"), JSON.stringify(answers));
  return root;
}

/** Starts `sapling mock` in-process; resolves once it prints its URL. */
async function startMock(root: string, args: string[]) {
  let stop: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const context = captureContext({ cwd: root, interrupted });
  const exit = main(["mock", ...args], context);
  for (let attempt = 0; !context.output().stdout.includes("Press Ctrl-C"); attempt++) {
    if (attempt > 500) throw new Error(`mock did not start: ${JSON.stringify(context.output())}`);
    const early = await Promise.race([
      exit,
      new Promise((resolve) => setTimeout(() => resolve(undefined), 10)),
    ]);
    if (early !== undefined) throw new Error(`mock exited ${early}: ${JSON.stringify(context.output())}`);
  }
  return {
    context,
    stop: async () => {
      stop();
      return exit;
    },
  };
}

/** The client block `sapling mock` prints, as printed. */
function pastedClient(stdout: string): string {
  const block = /^client<llm> Mock \{\n[\s\S]*?\n\}$/m.exec(stdout)?.[0];
  if (!block) throw new Error(`no client block in:\n${stdout}`);
  return `${block}\n`;
}

describe("sapling mock", () => {
  it("serves the answer file in order to the client block it prints, logs requests, stops on interrupt", async () => {
    const root = project({
      answers: [{ fault: { type: "http-error", status: 503, message: "warming up" } }],
      default: { json: { name: "Ada Lovelace", age: 36 }, chunkSize: 5 },
    });
    const mock = await startMock(root, ["--answers", "answers.json", "--port", "0"]);
    const { stdout } = mock.context.output();
    expect(stdout).toMatch(
      /^Mock LLM server at http:\/\/127\.0\.0\.1:\d+: 1 scripted answer, then the default answer\. Press Ctrl-C to stop\.$/m,
    );
    writeFileSync(join(root, "baml_src", "mock.baml"), pastedClient(stdout));

    const failed = captureContext({ cwd: root });
    expect(
      await main(["call", "ExtractPerson", "--client", "Mock", "--args", '{"text": "Ada"}'], failed),
    ).toBe(1);
    expect(failed.output().stderr).toContain("warming up");

    const call = captureContext({ cwd: root });
    expect(await main(["call", "ExtractPerson", "--client", "Mock", "--args", '{"text": "Ada"}'], call)).toBe(
      0,
    );
    expect(JSON.parse(call.output().stdout)).toEqual({ name: "Ada Lovelace", age: 36 });
    const streamed = captureContext({ cwd: root });
    expect(
      await main(
        ["call", "ExtractPerson", "--client", "Mock", "--stream", "--args", '{"text": "Ada"}'],
        streamed,
      ),
    ).toBe(0);
    expect(streamed.output().stdout.trimEnd().split("\n").at(-1)).toBe('{"name":"Ada Lovelace","age":36}');

    expect(await mock.stop()).toBe(0);
    const log = mock.context.output().stderr.trimEnd().split("\n");
    expect(log).toEqual([
      "#1 POST /v1/chat/completions (openai model mock)",
      "#2 POST /v1/chat/completions (openai model mock)",
      "#3 POST /v1/chat/completions (openai model mock, streamed)",
    ]);
    expect(mock.context.output().stdout).toContain("Stopped after 3 requests.\n");
  });

  it("--answer sets the answer for every request; sapling test --client reaches it", async () => {
    const root = project([]);
    writeFileSync(
      join(root, "baml_src", "tests.baml"),
      'test Ada {\n  functions [ExtractPerson]\n  args { text "Ada" }\n  @@assert({{ this.age == 36 }})\n}\n',
    );
    const mock = await startMock(root, ["--answer", '{"name": "Ada", "age": 36}', "--port", "0", "--quiet"]);
    writeFileSync(join(root, "baml_src", "mock.baml"), pastedClient(mock.context.output().stdout));
    const run = captureContext({ cwd: root });
    expect(await main(["test", "--client", "Mock"], run)).toBe(0);
    expect(run.output().stdout).toContain("1 test: 1 passed");
    await mock.stop();
    expect(mock.context.output().stderr).toBe("");
  });

  it("-- COMMAND runs it with LOCAL_LLM_BASE_URL set, then stops and exits with its code", async () => {
    const root = project(["first"]);
    const script = [
      "const url = process.env.LOCAL_LLM_BASE_URL + '/chat/completions';",
      "const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });",
      "const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });",
      "const answer = await response.json();",
      "console.log(answer.choices[0].message.content, process.env.SAPLING_MOCK_URL === new URL(url).origin);",
      "process.exit(3);",
    ].join("\n");
    const context = captureContext({ cwd: root, env: { PATH: process.env.PATH } });
    const argv = [
      "mock",
      "--answers",
      "answers.json",
      "--port",
      "0",
      "--",
      process.execPath,
      "--input-type=module",
      "-e",
      script,
    ];
    expect(await main(argv, context)).toBe(3);
    const { stdout, stderr } = context.output();
    expect(stdout).toBe("first true\n");
    expect(stderr).toMatch(
      /^Mock LLM server at http:\/\/127\.0\.0\.1:\d+; running [\s\S]* with LOCAL_LLM_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1\n#1 POST \/v1\/chat\/completions \(openai model m\)\n$/,
    );
  });

  it("-- without a command, or a command that does not exist, says so", async () => {
    const none = captureContext({ cwd: tmpdir() });
    expect(await main(["mock", "--port", "0", "--"], none)).toBe(2);
    expect(none.output().stderr).toContain("name the command to run after --");
    const missing = captureContext({ cwd: tmpdir(), env: { PATH: process.env.PATH } });
    expect(await main(["mock", "--port", "0", "--quiet", "--", "sapling-no-such-program"], missing)).toBe(1);
    expect(missing.output().stderr).toBe(
      "sapling mock: cannot run sapling-no-such-program: no such command.\n",
    );
  });

  it("says which field of the answer file is wrong, and where the format is documented", async () => {
    const root = project([{ text: "a", fault: { type: "http-error", status: "429" } }]);
    const context = captureContext({ cwd: root });
    expect(await main(["mock", "--answers", "answers.json", "--port", "0"], context)).toBe(1);
    expect(context.output().stderr).toBe(
      'sapling mock: answers.json: answers[0].fault.status: expected a whole number of at least 400, got "429"\n' +
        "The answer file's format: https://github.com/sapling-llm/sapling/blob/main/docs/mock-llm-server.md.\n",
    );
  });

  it("refuses a 100k-deep answer file with the field and the way out, not an internal error", async () => {
    const root = project([]);
    const depth = 100_000;
    writeFileSync(join(root, "answers.json"), `[{"json": ${"[".repeat(depth)}${"]".repeat(depth)}}]`);
    const context = captureContext({ cwd: root });
    expect(await main(["mock", "--answers", "answers.json", "--port", "0"], context)).toBe(1);
    expect(context.output().stderr).toMatch(
      /^sapling mock: answers\.json: answers\[0\]\.json: nested more than 1000 levels deep.*"text"/,
    );
  });

  it("names a port in use and how to pick another; refuses a port out of range", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    const busy = captureContext({ cwd: tmpdir() });
    expect(await main(["mock", "--port", String(port)], busy)).toBe(1);
    expect(busy.output().stderr).toBe(
      `sapling mock: port ${port} on 127.0.0.1 is in use; pick another with --port N (0 for any free one).\n`,
    );
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    const range = captureContext({ cwd: tmpdir() });
    expect(await main(["mock", "--port", "70000"], range)).toBe(2);
    expect(range.output().stderr).toContain('--port must be a port number from 0 to 65535, got "70000"');
  });
});
