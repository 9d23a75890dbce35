/**
 * A streamed call's cost in this tree against another checkout of Sapling, both loaded in one process and
 * timed interleaved (alternating which goes first), in CPU time, so machine noise hits both alike:
 *
 *   npx tsx scripts/stream-call-side-by-side.ts <folder of the other checkout> [--rounds N]
 *
 * `runtime.stream` of a recipe (60 steps, about 12 KB) from an in-memory fetch that sends it as
 * OpenAI SSE in 16-character chunks, one chunk per macrotask, with a consumer that reads every partial
 * (`partialIntervalMs: 0`): the whole path after the provider (parser, pipeline, `SaplingStream`). The
 * median of the rounds (default 9) per tree; the first round of each is a warm-up.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const otherFolder = process.argv[2];
const roundsAt = process.argv.indexOf("--rounds");
const rounds = roundsAt < 0 ? 9 : Number(process.argv[roundsAt + 1]);
if (otherFolder === undefined || otherFolder.startsWith("--") || !(rounds >= 1)) {
  console.error(
    "usage: npx tsx scripts/stream-call-side-by-side.ts <folder of the other checkout> [--rounds N]",
  );
  process.exit(2);
}

const source = `
class Step {
  action string
  note string
  minutes int
}
class Recipe {
  title string
  steps Step[]
}
client<llm> Mock {
  provider openai-generic
  options {
    base_url "http://127.0.0.1:9/v1"
    model "bench-model"
    api_key "bench-key"
  }
}
function WriteRecipe(dish: string) -> Recipe {
  client Mock
  prompt #"A recipe for {{ dish }}. {{ ctx.output_format }}"#
}
`;
const answer = JSON.stringify({
  title: "Seed cake",
  steps: Array.from({ length: 60 }, (_, index) => ({
    action: `Step ${index}`,
    note: "Fold the flour in gently and keep the oven door shut. ".repeat(3),
    minutes: index % 7,
  })),
});
const chunks: string[] = [];
for (let at = 0; at < answer.length; at += 16) chunks.push(answer.slice(at, at + 16));
const encoder = new TextEncoder();
const sse = (value: unknown) => encoder.encode(`data: ${JSON.stringify(value)}\n\n`);

/** The answer as an OpenAI stream, one chunk per macrotask (as chunks arrive from a socket). */
const fetchAnswer: typeof fetch = async () => {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((done) => setImmediate(done));
      const text = chunks[next++];
      if (text !== undefined) {
        controller.enqueue(sse({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }));
        return;
      }
      controller.enqueue(sse({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
};

type StreamRun = () => Promise<number>;

async function load(folder: string): Promise<StreamRun> {
  const from = (path: string) => import(pathToFileURL(resolve(folder, path)).href);
  const { compile } = await from("src/language/index.ts");
  const { SaplingRuntime } = await from("src/runtime/index.ts");
  const { ir } = compile({ "main.baml": source });
  const runtime = SaplingRuntime.fromIr(ir, { fetch: fetchAnswer });
  return async () => {
    const stream = runtime.stream("WriteRecipe", { dish: "seed cake" }, { partialIntervalMs: 0 });
    let partials = 0;
    for await (const _partial of stream) partials++;
    await stream.getFinalResponse();
    return partials;
  };
}

const trees: { name: string; run: StreamRun; times: number[]; partials: number }[] = [
  { name: "this tree", run: await load("."), times: [], partials: 0 },
  { name: otherFolder, run: await load(otherFolder), times: [], partials: 0 },
];
for (let round = 0; round <= rounds; round++) {
  const order = round % 2 === 0 ? trees : [...trees].reverse();
  for (const tree of order) {
    const started = process.cpuUsage();
    tree.partials = await tree.run();
    const used = process.cpuUsage(started);
    if (round > 0) tree.times.push((used.user + used.system) / 1000);
  }
}
const median = (values: number[]) => [...values].sort((left, right) => left - right)[values.length >> 1] ?? 0;
for (const tree of trees) {
  console.log(
    `${tree.name}: ${median(tree.times).toFixed(1)} ms CPU (median of ${rounds}), ${tree.partials} partials, ${chunks.length} chunks`,
  );
}
const [mine, other] = trees;
console.log(`ratio: ${(median(mine?.times ?? []) / median(other?.times ?? [])).toFixed(3)}`);
