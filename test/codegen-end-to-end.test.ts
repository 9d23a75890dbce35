/**
 * End to end, as a user would: `sapling init` and `sapling generate` in a fresh folder, the generated
 * client type-checked under strict settings together with a small application written against BAML's
 * TypeScript surface, then that application run in its own Node process (tsx) against the mock LLM server
 * over real HTTP and SSE. `sapling-llm/runtime` resolves to this repository's source through a tiny package in
 * the folder's node_modules, as an installed package would.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext, main } from "../src/cli/index.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";
import { typeCheck } from "./codegen-typecheck.js";

const repository = resolve(import.meta.dirname, "..");
const messyAnswer = readFileSync(
  join(repository, "examples", "resume", "outputs", "fenced-chatty.txt"),
  "utf8",
);

/** The application: BAML-style imports and calls only. */
const application = `
import { typeBuilderCompiler } from "sapling-llm";
import {
  b,
  ClientRegistry,
  Collector,
  flush,
  onLogEvent,
  type partial_types,
  traceAsync,
  TypeBuilder,
} from "./baml_client/index.js";
import { DO_NOT_USE_DIRECTLY_UNLESS_YOU_KNOW_WHAT_YOURE_DOING_RUNTIME as bamlRuntime } from "./baml_client/globals.js";
import { getLogLevel, isBamlError } from "sapling-llm/runtime";
import { b as bSync } from "./baml_client/sync_client.js";

const resume = "Jane Doe — 8 years building distributed systems in Rust and Go.";
const collector = new Collector("e2e");
const evaluation = await b.EvaluateResume(resume, { client: "Local", collector });

const registry = new ClientRegistry();
registry.addLlmClient("Mock", "openai-generic", { base_url: process.env["LOCAL_LLM_BASE_URL"], model: "mock" });
registry.setPrimary("Mock");
const stream = b.withOptions({ clientRegistry: registry }).stream.EvaluateResume(resume);
const partials: partial_types.CandidateEvaluation[] = [];
for await (const partial of stream) partials.push(partial);
const final = await stream.getFinalResponse();

const parsed = b.parse.EvaluateResume('{"candidate_name": "Ann", "years_of_experience": "12", "skills": "Go, Rust",'
  + ' "work_history": [], "decision": "hire", "reasoning": "ok"}');
const request = await b.request.EvaluateResume(resume, { client: "Local" });

const tb = new TypeBuilder({ compileBaml: typeBuilderCompiler });
tb.addBaml(\`class Address {
  city string @alias("town")
}

enum Tier {
  GOLD
  SILVER
}

dynamic class Contact {
  address Address?
  tier Tier
}\`);
tb.Contact.addProperty("email", tb.string().optional());
const contact = await b.ExtractContact("Ann, gold member, lives in Paris.", { tb });
let addBamlError = "";
try {
  tb.addBaml("dynamic class Contact {\\n  phone Phone\\n}");
} catch (error) {
  addBamlError = (error as Error).message;
}

const batch = await b.batch.ExtractContact(
  [{ text: "Bob, a contact card." }, { text: "Cy, a contact card." }],
  { concurrency: 2, id: (row) => row.text.slice(0, 3) },
);
// Observability: onTick as the answer streams, a traced function and its log events.
let ticks = 0;
const events: string[] = [];
onLogEvent((event) => events.push(event.metadata.parentId === undefined ? "trace" : "function"));
// BAML's tracing counters: the first drain starts counting (zeros), the second reads the trace and its call.
const statsBefore = bamlRuntime.drainStats();
const screen = traceAsync("Screen", (text: string) =>
  b.EvaluateResume(text, { client: "Local", onTick: () => { ticks += 1; } }),
);
await screen(resume);
await flush();
const stats = bamlRuntime.drainStats();

// BAML's sync client: each call blocks until it ends (on a worker thread), requests come back built.
const syncCollector = new Collector("sync");
const syncEvaluation = bSync.withOptions({ clientRegistry: registry }).EvaluateResume(resume, {
  collector: syncCollector,
});
const syncContact = bSync.ExtractContact("Ann, gold member, lives in Paris.", { tb });
const syncRequest = bSync.request.EvaluateResume(resume, { client: "Local" });
const syncStreamRequest = bSync.streamRequest.EvaluateResume(resume, { client: "Local" });
const refusals: string[] = [];
for (const options of [{ client: "Local", onTick: () => {} }, { client: "NoSuchClient" }]) {
  try {
    bSync.EvaluateResume(resume, options);
  } catch (error) {
    refusals.push(\`\${isBamlError(error)} \${(error as Error).constructor.name}: \${(error as Error).message}\`);
  }
}

console.log(JSON.stringify({
  ticks,
  events,
  statsBefore,
  stats,
  logLevel: getLogLevel(),
  syncEvaluation,
  syncContact,
  syncLogs: syncCollector.logs.map((log) => [log.functionName, log.calls[0]?.httpRequest?.body.json().model]),
  syncRequestSame: JSON.stringify(syncRequest.body.json()) === JSON.stringify(request.body.json()),
  syncRequestUrl: syncRequest.url,
  syncStream: syncStreamRequest.body.json().stream,
  refusals,
  evaluation,
  partialCount: partials.length,
  lastPartialName: partials.at(-1)?.candidate_name ?? null,
  final,
  parsed,
  requestUrl: request.url,
  logged: collector.logs.length,
  contact,
  addBamlError,
  batch: batch.results,
}));
`;

/** A `@@dynamic` class the application extends with `tb.addBaml`, as a user's project would declare it. */
const contactBaml = `class Contact {
  name string
  @@dynamic
}

function ExtractContact(text: string) -> Contact {
  client Local
  prompt #"
    Fill in the contact card for: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;
const contactAnswer =
  '{"name": "Ann", "address": {"town": "Paris"}, "tier": "GOLD", "email": null, "unknown": 1}';

let server: MockLlmServer;
let root: string;

beforeAll(async () => {
  server = await startMockLlmServer({
    defaultAnswer: answer(messyAnswer, { chunkSize: 16 }),
    respond: (request) =>
      JSON.stringify(request.body).includes("contact card") ? answer(contactAnswer) : undefined,
  });
  root = mkdtempSync(join(tmpdir(), "sapling-e2e-"));
});

afterAll(async () => {
  await server.close();
});

describe("init → generate → compile → run against the mock server", () => {
  it("scaffolds and generates a client", async () => {
    expect(await main(["init"], captureContext({ cwd: root }))).toBe(0);
    writeFileSync(join(root, "baml_src", "contact.baml"), contactBaml);
    const context = captureContext({ cwd: root });
    expect(await main(["generate"], context)).toBe(0);
    expect(readdirSync(join(root, "baml_client"))).toContain("index.ts");
    writeFileSync(join(root, "app.ts"), application);
    const packageFolder = join(root, "node_modules", "sapling-llm");
    mkdirSync(packageFolder, { recursive: true });
    writeFileSync(
      join(packageFolder, "package.json"),
      JSON.stringify({
        name: "sapling-llm",
        type: "module",
        exports: {
          ".": "./index.ts",
          "./runtime": "./runtime.ts",
          "./constraints": "./constraints.ts",
          "./batch": "./batch.ts",
          "./sync": "./sync.ts",
        },
      }),
    );
    writeFileSync(
      join(packageFolder, "index.ts"),
      `export * from ${JSON.stringify(join(repository, "src", "index.ts"))};\n`,
    );
    writeFileSync(
      join(packageFolder, "runtime.ts"),
      `export * from ${JSON.stringify(join(repository, "src", "runtime", "index.ts"))};\n`,
    );
    writeFileSync(
      join(packageFolder, "constraints.ts"),
      `export * from ${JSON.stringify(join(repository, "src", "constraints", "index.ts"))};\n`,
    );
    writeFileSync(
      join(packageFolder, "batch.ts"),
      `export * from ${JSON.stringify(join(repository, "src", "batch", "index.ts"))};\n`,
    );
    writeFileSync(
      join(packageFolder, "sync.ts"),
      `export * from ${JSON.stringify(join(repository, "src", "sync", "index.ts"))};\n`,
    );
    writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
  });

  it("type-checks the generated client and the application under strict settings", () => {
    const clientFiles = readdirSync(join(root, "baml_client")).map((file) => join(root, "baml_client", file));
    const appText = readFileSync(join(root, "app.ts"), "utf8");
    const diagnostics = typeCheck({
      moduleFormat: "esm",
      rootFiles: clientFiles,
      virtualFiles: new Map([
        [
          join(root, "app-check.ts"),
          `declare const process: { env: Record<string, string | undefined> };\n${appText}\nexport {};\n`,
        ],
      ]),
      reportUnder: [root],
    });
    expect(diagnostics).toEqual([]);
  }, 60_000);

  it("runs the application: a call, a stream with partials, a parse, a request and addBaml", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      join(repository, "node_modules", ".bin", "tsx"),
      ["app.ts"],
      {
        cwd: root,
        env: { ...process.env, LOCAL_LLM_BASE_URL: server.baseUrls.openai, OPENAI_API_KEY: "", BAML_LOG: "" },
        timeout: 30_000,
      },
    );
    const output = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
    const expected = {
      candidate_name: "Jane Doe",
      years_of_experience: 8,
      skills: ["Rust", "Kubernetes", "Distributed Systems"],
      work_history: [
        {
          company: "Streamline",
          role: "Staff Engineer",
          duration_months: 60,
          achievements: ["Led the Kubernetes migration"],
        },
      ],
      decision: "STRONG_HIRE",
      reasoning: "Strong systems background; the gap is explained by a sabbatical.",
    };
    expect(output.evaluation).toEqual(expected);
    expect(output.final).toEqual(expected);
    expect(output.partialCount).toBeGreaterThan(1);
    expect(output.lastPartialName).toBe("Jane Doe");
    expect(output.parsed).toMatchObject({
      candidate_name: "Ann",
      years_of_experience: 12,
      skills: ["Go", "Rust"],
      decision: "HIRE",
    });
    expect(output.requestUrl).toBe(`${server.baseUrls.openai}/chat/completions`);
    expect(output.logged).toBe(1);
    expect(output.contact).toEqual({ name: "Ann", address: { city: "Paris" }, tier: "GOLD", email: null });
    expect(output.addBamlError).toContain('error[E0101]: Unknown type "Phone".\n  --> <addBaml>:2:9');
    expect(output.batch).toEqual([
      { id: "Bob", ok: true, value: { name: "Ann" }, raw: contactAnswer },
      { id: "Cy,", ok: true, value: { name: "Ann" }, raw: contactAnswer },
    ]);
    // A b.Fn with onTick streams its answer (as BAML does): one tick per chunk, and one as it ends.
    expect(server.requests.map((request) => request.stream)).toEqual([
      false,
      true,
      false,
      false,
      false,
      true,
      // The sync client's two calls (its requests are built, not sent).
      false,
      false,
    ]);
    expect(output.ticks).toBe(Math.ceil(messyAnswer.length / 16) + 1);
    expect(output.events).toEqual(["function", "trace"]);
    const counted = (count: number, failed: number) => ({
      started: count,
      finalized: count,
      submitted: count,
      sent: count,
      done: count,
      failed,
    });
    expect(output.statsBefore).toEqual(counted(0, 0));
    // The trace and the LLM function inside it; attempts are not counted.
    expect(output.stats).toEqual(counted(2, 0));
    expect(output.logLevel).toBe("info");
    expect(output.syncEvaluation).toEqual(expected);
    // The TypeBuilder's schema crossed to the worker: the dynamic fields are there.
    expect(output.syncContact).toEqual(output.contact);
    expect(output.syncLogs).toEqual([["EvaluateResume", "mock"]]);
    expect(output.syncRequestSame).toBe(true);
    expect(output.syncRequestUrl).toBe(`${server.baseUrls.openai}/chat/completions`);
    expect(output.syncStream).toBe(true);
    expect(output.refusals).toEqual([
      expect.stringMatching(
        /^true BamlInvalidArgumentError: onTick is not supported for synchronous functions/,
      ),
      expect.stringMatching(/^true \w+Error: .*NoSuchClient/),
    ]);
    // BAML_LOG is empty: the default level, info, writes one line per call on stderr.
    expect(stderr.match(/\[sapling info\] EvaluateResume ok client=Local /g)).toHaveLength(2);
    expect(stderr).toMatch(/\[sapling info\] ExtractContact ok client=Local .* repairs=\d+\n/);
  }, 60_000);
});
