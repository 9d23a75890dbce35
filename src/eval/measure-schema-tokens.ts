import type { ClientRegistry } from "../runtime/index.js";
import type { EvalCell } from "./eval-record.js";

/** What measuring needs of a runtime: `SaplingRuntime.buildRequest`. */
export interface RequestBuilder {
  buildRequest(
    functionName: string,
    args: Record<string, unknown>,
    request: { stream: boolean },
    options: { client: string; outputMode: EvalCell["mode"]; clientRegistry?: ClientRegistry },
  ): Promise<{ body: Record<string, unknown> }>;
}

/** Body keys through which a mode sends its schema (tools, enforced formats), in every wire format. */
const schemaKeys = ["response_format", "tools", "tool_choice", "toolConfig", "text"];
const generationSchemaKeys = ["responseSchema", "responseJsonSchema", "responseMimeType"];

/**
 * The tokens a cell's mode adds to the request for its schema: the tokens of the request body it sends,
 * less those of the same request with no schema at all (native mode's prompt, where `ctx.output_format`
 * renders empty, without its tools or enforced format). In prompt mode that is `ctx.output_format`; in
 * tools and native modes, the tool definitions or the JSON Schema. `null` when the request cannot be
 * built (a mode the return type cannot use) or there is no tokenizer.
 */
export async function measureSchemaTokens(
  runtime: RequestBuilder,
  functionName: string,
  args: Record<string, unknown>,
  cell: EvalCell,
  countTokens: ((text: string) => number) | undefined,
  clientRegistry?: ClientRegistry,
): Promise<number | null> {
  if (countTokens === undefined) return null;
  const build = (mode: EvalCell["mode"]) =>
    runtime.buildRequest(
      functionName,
      args,
      { stream: false },
      { client: cell.client, outputMode: mode, ...(clientRegistry ? { clientRegistry } : {}) },
    );
  try {
    const sent = (await build(cell.mode)).body;
    const bare: Record<string, unknown> = { ...(await build("native")).body };
    for (const key of schemaKeys) delete bare[key];
    const generation = bare.generationConfig;
    if (generation !== null && typeof generation === "object") {
      const rest: Record<string, unknown> = { ...(generation as Record<string, unknown>) };
      for (const key of generationSchemaKeys) delete rest[key];
      bare.generationConfig = rest;
    }
    return Math.max(0, countTokens(JSON.stringify(sent)) - countTokens(JSON.stringify(bare)));
  } catch {
    return null;
  }
}
