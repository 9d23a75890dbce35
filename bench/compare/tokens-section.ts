/**
 * Section "Prompt tokens": how many o200k_base tokens (GPT-4o's tokenizer, js-tiktoken) the schema costs in
 * the prompt, for each corpus function: BAML's `{{ ctx.output_format }}` (rendered offline by the real
 * runtime's `buildRequest`, which builds the HTTP request without sending it), Sapling's
 * `renderOutputFormat`, and JSON Schema for the same type, minified and pretty — both Sapling's
 * `toJsonSchema` and Zod's `z.toJSONSchema` of the hand-written mirrors — and `outputFormat(zodSchema)` from
 * `sapling-llm/zod`, the compact text for those same mirrors.
 */
import { getEncoding } from "js-tiktoken";
import { z } from "zod";
import { renderOutputFormat, toJsonSchema } from "../../src/prompt/index.js";
import { outputFormat } from "../../src/zod/index.js";
import { objectSchemas, ticketSchema } from "../corpus/build-corpus.js";
import { loadBaml, readBamlSources } from "./baml-parser.js";
import { formatRatio, markdownTable } from "./markdown-table.js";
import { loadSaplingProject } from "./sapling-project.js";
import { zodSchemaFor } from "./zod-schemas.js";

/** Every corpus prompt puts `{{ text }}` right before `{{ ctx.output_format }}`; the marker finds the split. */
const marker = "<<<TEXT>>>";

async function bamlOutputFormats(functionNames: readonly string[]): Promise<Map<string, string>> {
  const baml = await loadBaml();
  const env = { BENCH_BASE_URL: "http://127.0.0.1:9/v1" };
  const runtime = baml.BamlRuntime.fromFiles("baml_src", readBamlSources(), env);
  const context = new baml.BamlCtxManager(runtime);
  const formats = new Map<string, string>();
  for (const name of functionNames) {
    const request = await runtime.buildRequest(
      name,
      { text: marker },
      context.cloneContext(),
      null,
      null,
      false,
      env,
    );
    const body = request.body.json() as { messages: Array<{ content: string | Array<{ text?: string }> }> };
    const content = body.messages.map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => part.text ?? "").join(""),
    );
    const prompt = content.join("\n");
    formats.set(name, prompt.slice(prompt.indexOf(marker) + marker.length).trim());
  }
  return formats;
}

export async function tokensSection(): Promise<string> {
  const encoding = getEncoding("o200k_base");
  const tokens = (text: string): number => encoding.encode(text).length;
  const project = loadSaplingProject();
  const schemas = [
    ...objectSchemas.map(({ key, typeExpression, functionName }) => ({ key, typeExpression, functionName })),
    ticketSchema,
  ];
  const baml = await bamlOutputFormats(schemas.map((schema) => schema.functionName));
  let identical = 0;
  const rows = schemas.map((schema) => {
    const type = project.returnTypeOf(schema.functionName);
    const sapling = renderOutputFormat(project.ir, type);
    const bamlText = baml.get(schema.functionName) ?? "";
    if (sapling === bamlText) identical += 1;
    const jsonSchema = toJsonSchema(project.ir, type);
    const zodJsonSchema = z.toJSONSchema(zodSchemaFor(schema.key));
    const saplingTokens = tokens(sapling);
    const zodTokens = tokens(outputFormat(zodSchemaFor(schema.key)));
    const columns = [
      tokens(JSON.stringify(jsonSchema)),
      tokens(JSON.stringify(jsonSchema, null, 2)),
      tokens(JSON.stringify(zodJsonSchema)),
      tokens(JSON.stringify(zodJsonSchema, null, 2)),
    ];
    return [
      `${schema.functionName} → \`${schema.typeExpression}\``,
      String(tokens(bamlText)),
      `${saplingTokens}${sapling === bamlText ? "" : " (differs)"}`,
      ...columns.map((count) => `${count} (${formatRatio(count, saplingTokens)})`),
      `${zodTokens} (JSON Schema ${formatRatio(tokens(JSON.stringify(zodJsonSchema)), zodTokens)})`,
    ];
  });
  return [
    "### Prompt tokens for the schema",
    "",
    "o200k_base tokens (js-tiktoken) of the schema text each approach puts in the prompt. BAML's text is taken " +
      "from the request its real runtime builds offline (`runtime.buildRequest`, nothing sent); Sapling's from " +
      "`renderOutputFormat(ir, type)` with default options. JSON Schema columns in parentheses: how many times " +
      "Sapling's token count. The last column is `outputFormat(zodSchema)` from `sapling-llm/zod` for the same " +
      "Zod mirrors, against `JSON.stringify(z.toJSONSchema(zodSchema))`.",
    "",
    `Sapling's rendering is byte-identical to BAML's for ${identical} of ${schemas.length} schemas.`,
    "",
    markdownTable(
      [
        "function → type",
        "BAML output_format",
        "Sapling output_format",
        "JSON Schema (Sapling), minified",
        "pretty",
        "JSON Schema (Zod), minified",
        "pretty",
        "`outputFormat(zodSchema)`",
      ],
      rows,
    ),
  ].join("\n");
}
