/**
 * `npm run bench -- delivery`: what a streamed answer costs after the parser — memory held for a consumer
 * that reads late, and bytes on the wire through `sapling serve` — for answers of about 34 KB and 339 KB
 * streamed by the mock LLM server in 16-character chunks (one process: client, server and mock).
 *
 * - Heap retained by `b.stream` (`runtime.stream`) when the consumer reads nothing until the call ended:
 *   measured after a forced garbage collection, against the final value's JSON text.
 * - Bytes of `POST /stream/{Fn}` over loopback HTTP, with a client that reads as fast as it can and one
 *   that takes at most 60 events a second, in the default format (whole partials) and the delta format
 *   (`Accept: application/vnd.sapling-delta+json`), against the answer's bytes.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { serveOverNodeHttp } from "../src/cli/commands/serve-over-node-http.js";
import { compile } from "../src/language/index.js";
import { SaplingRuntime } from "../src/runtime/index.js";
import { createSaplingHandler } from "../src/server/index.js";
import { answer, startMockLlmServer } from "../src/testing/index.js";
import { markdownTable } from "./compare/markdown-table.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const chunkSize = 16;
/** Streams held at once for the heap measurement (the heap is divided by this). */
const heldStreams = 4;

const source = `
class Finding {
  title string
  detail string
  severity int
}

class Report {
  subject string
  findings Finding[]
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "bench-model"
  }
}

function WriteReport(subject: string) -> Report {
  client Mock
  prompt #"
    Report on {{ subject }}.
    {{ ctx.output_format }}
  "#
}
`;

/** A report of about `bytes` characters: JSON after a line of prose, as chat models answer. */
function answerText(bytes: number): string {
  const findings: string[] = [];
  let length = 0;
  for (let index = 0; length < bytes; index++) {
    const finding = JSON.stringify({
      title: `Finding number ${index}`,
      detail: `The component ${index} answers slowly under load; the queue grows until requests time out.`,
      severity: index % 5,
    });
    findings.push(finding);
    length += finding.length + 2;
  }
  return `Here is the report:\n{"subject": "the checkout service", "findings": [\n${findings.join(",\n")}\n]}`;
}

function kib(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads an SSE body, pausing after each event when `eventsPerSecond` is set; counts bytes and events. */
async function readEvents(
  response: Response,
  eventsPerSecond: number | undefined,
): Promise<{ bytes: number; events: number }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let events = 0;
  let tail = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    tail += decoder.decode(value, { stream: true });
    let end = tail.indexOf("\n\n");
    while (end >= 0) {
      if (!tail.startsWith(":")) events++;
      tail = tail.slice(end + 2);
      end = tail.indexOf("\n\n");
      if (eventsPerSecond !== undefined) await sleep(1000 / eventsPerSecond);
    }
  }
  return { bytes, events };
}

export async function benchDelivery(): Promise<string> {
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  const ir = compiled.ir;
  const mock = await startMockLlmServer();
  const runtime = SaplingRuntime.fromIr(ir, { env: { MOCK_URL: mock.baseUrls.openai } });
  const server = await serveOverNodeHttp(createSaplingHandler({ runtime, ir }), {
    port: 0,
    host: "127.0.0.1",
  });
  const heapRows: string[][] = [];
  const wireRows: string[][] = [];
  try {
    for (const size of [34_000, 339_000]) {
      const text = answerText(size);
      const answerBytes = Buffer.byteLength(text);
      const label = `${kib(answerBytes)} answer, ${Math.ceil(text.length / chunkSize)} chunks`;

      // Heap held for a consumer that reads only at the end (after a run that warms every path up). Several
      // streams are held at once and the heap divided by their number, so the collector's noise shrinks.
      mock.script(...Array.from({ length: heldStreams + 1 }, () => answer(text, { chunkSize })));
      await runtime.stream("WriteReport", { subject: "checkout" }).getFinalResponse();
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      let streams: ReturnType<typeof runtime.stream>[] = [];
      const finals: unknown[] = [];
      for (let index = 0; index < heldStreams; index++) {
        const stream = runtime.stream("WriteReport", { subject: "checkout" });
        finals.push(await stream.getFinalResponse());
        streams.push(stream);
      }
      collectGarbage();
      const retained = (process.memoryUsage().heapUsed - before) / heldStreams;
      const finalJson = JSON.stringify(finals[0]).length;
      let partials = 0;
      for await (const _ of streams[0]!) partials++;
      // The same with the streams gone and the final values kept: what a final value alone holds.
      streams = [];
      collectGarbage();
      const finalHeap = (process.memoryUsage().heapUsed - before) / heldStreams;
      const streamHeap = retained - finalHeap;
      heapRows.push([
        label,
        kib(finalJson),
        kib(retained),
        `${kib(finalHeap)} (${(finalHeap / finalJson).toFixed(2)}×)`,
        `${kib(streamHeap)} (${(streamHeap / finalJson).toFixed(2)}×)`,
        `${(retained / finalJson).toFixed(2)}×`,
        String(partials),
      ]);
      if (finals.length !== heldStreams) throw new Error("a stream ended without its final value");

      // Bytes on the wire.
      const clients: [string, Record<string, string>, number | undefined][] = [
        ["default, 60 events/s", {}, 60],
        ["delta, as fast as it reads", { accept: "application/vnd.sapling-delta+json" }, undefined],
      ];
      // Whole partials to a client as fast as the server: today's quadratic worst case, small answer only.
      if (size < 100_000) clients.unshift(["default, as fast as it reads", {}, undefined]);
      for (const [name, headers, eventsPerSecond] of clients) {
        mock.script(answer(text, { chunkSize }));
        const started = performance.now();
        const response = await fetch(`${server.url}/stream/WriteReport`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ subject: "checkout" }),
        });
        const { bytes, events } = await readEvents(response, eventsPerSecond);
        const seconds = (performance.now() - started) / 1000;
        wireRows.push([
          label,
          name,
          String(events),
          kib(bytes),
          `${(bytes / answerBytes).toFixed(1)}×`,
          `${seconds.toFixed(2)} s`,
        ]);
      }
    }
  } finally {
    await server.close();
    await mock.close();
  }
  return [
    "## Delivery: memory and bytes after the parser",
    "",
    "Answers of a report (a list of findings, each two strings and an int), about 34 KB and 339 KB, streamed " +
      `by the mock LLM server in ${chunkSize}-character chunks; client, server and mock share one process.`,
    "",
    "### `b.stream` for a consumer that reads only at the end",
    "",
    "Heap used after a forced garbage collection, once the call has ended and before the consumer read " +
      `anything, minus the heap before the call (${heldStreams} streams held at once, divided by ${heldStreams}). ` +
      "*Without the stream*: the same once the stream is dropped " +
      "and only the final value is kept (the final value, and whatever the final-mode parse left it " +
      "holding); *the stream's own*: the difference — one partial (the latest, built when the call ended, " +
      "which lets the parser's state go) and the stream object. The consumer then gets that one partial, " +
      "never a backlog. Target: the stream's own at most 2× the final value's JSON text. (While the answer " +
      "is still arriving the parser's state is held too: its tree of the answer so far.) The parser reads " +
      "the chunks appended since its last read in one piece, so the strings of that last partial are " +
      "slices of one text rather than chains of 16-character pieces. For the small answer the stream's own " +
      "is within the collector's noise (it may come out below zero).",
    "",
    markdownTable(
      [
        "answer",
        "final value (JSON)",
        "heap retained",
        "without the stream",
        "the stream's own",
        "all ÷ final JSON",
        "partials read",
      ],
      heapRows,
    ),
    "",
    "### Bytes of `POST /stream/{Fn}` through `sapling serve`",
    "",
    "Loopback HTTP through `serveOverNodeHttp`. *60 events/s*: the client waits 1/60 s after each event " +
      "(socket backpressure makes the server coalesce: it sends the latest partial when the socket drains). " +
      "Targets: delta format at most 3× the answer's bytes; default format with the 60 events/s client at " +
      "most 50×. The default format to a client that keeps up is shown for the small answer only. Delta " +
      "events are small enough for the sockets' buffers to hold all of them, so a delta client reading at " +
      "60 events/s only takes longer (the bytes are the same); it is not run.",
    "",
    markdownTable(["answer", "client", "events", "bytes", "÷ answer", "took"], wireRows),
  ].join("\n");
}
