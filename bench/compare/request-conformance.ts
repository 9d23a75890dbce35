/**
 * Whole request bodies, Sapling against the real BAML 0.226.2: for each provider and each prompt shape
 * (roles, consecutive turns, system placement, media, role metadata), the body of BAML's offline
 * `buildRequest` and of Sapling's `runtime.buildRequest` for the same .baml source and arguments, compared
 * as JSON text (keys in order, byte for byte), for a call and for a stream. Nothing is sent. `vertex-ai` is
 * left out: building its request needs an OAuth token exchange; its body is `google-ai`'s (Claude models:
 * `anthropic`'s). BAML builds no streaming request for `aws-bedrock` ("modular streaming is not supported").
 */

import { providerExtensions } from "../../src/cli/provider-extensions.js";
import { compile } from "../../src/language/index.js";
import { SaplingRuntime } from "../../src/runtime/index.js";
import type { loadBaml } from "./baml-parser.js";

type Baml = Awaited<ReturnType<typeof loadBaml>>;

/** Client options per provider (one option per line, as BAML's parser wants them). */
const clients: Record<string, string[]> = {
  openai: ['model "gpt-4o"'],
  "openai-generic": ['base_url "http://127.0.0.1:9/v1"', 'model "m"'],
  ollama: ['model "llama3"'],
  openrouter: ['model "meta-llama/llama-3.1-8b-instruct"'],
  "azure-openai": ['resource_name "r"', 'deployment_id "d"', 'api_version "2024-10-21"'],
  anthropic: ['model "claude-3-5-haiku-latest"'],
  "google-ai": ['model "gemini-2.0-flash"'],
  "openai-responses": ['model "gpt-4o"'],
  "aws-bedrock": [
    'model "anthropic.claude-3-haiku-20240307-v1:0"',
    'region "us-east-1"',
    'access_key_id "AKIDEXAMPLE"',
    'secret_access_key "secret"',
  ],
};

/** Prompt shapes; `img` is a base64 PNG (BAML would download a URL even to build a request). */
const prompts: Record<string, string> = {
  "system + user": `{{ _.role("system") }} You are helpful. {{ _.role("user") }} Hi {{ text }} {{ ctx.output_format }}`,
  "no role": "Say {{ text }}",
  "consecutive turns": `{{ _.role("user") }} one {{ _.role("user") }} two {{ _.role("assistant") }} three {{ _.role("system") }} four`,
  "system only": `{{ _.role("system") }} only system`,
  "two system messages": `{{ _.role("system") }} s1 {{ _.role("system") }} s2 {{ _.role("user") }} u`,
  "system mid-prompt": `{{ _.role("user") }} u1 {{ _.role("system") }} s {{ _.role("user") }} u2`,
  "empty message": `{{ _.role("system") }} s {{ _.role("user") }} {{ _.role("assistant") }} a`,
  media: `{{ _.role("user") }} look {{ img }} there`,
  "role metadata": `{{ _.role("system", cache_control={"type": "ephemeral"}) }} s {{ _.role("user", cache_control={"type": "ephemeral"}) }} u1 {{ _.role("user") }} u2`,
  "role metadata with media": `{{ _.role("user", cache_control={"type": "ephemeral"}) }} look {{ img }} there {{ _.role("user") }} more`,
};

/** Documented differences (docs/providers.md, "Requests as BAML sends them"): provider → prompt shapes. */
const documented: Record<string, string[]> = {
  anthropic: ["role metadata with media"],
  "aws-bedrock": ["system mid-prompt", "role metadata with media"],
};

/** Streams of these providers ask for usage (`stream_options.include_usage`); BAML asks only `openai`'s. */
const streamUsage = new Set(["openai-generic", "ollama", "openrouter", "azure-openai"]);

const env = {
  OPENAI_API_KEY: "k",
  ANTHROPIC_API_KEY: "k",
  GOOGLE_API_KEY: "k",
  OPENROUTER_API_KEY: "k",
  AZURE_OPENAI_API_KEY: "k",
};
const png = "iVBORw0KGgo=";

export interface ProviderConformance {
  provider: string;
  compared: number;
  identical: number;
  /** Prompt shapes whose bodies differ and are documented as deliberate. */
  documented: string[];
  /** Prompt shapes whose bodies differ without a documented reason. */
  undocumented: string[];
}

function source(provider: string, prompt: string): string {
  const options = (clients[provider] ?? []).map((line) => `    ${line}`).join("\n");
  return `client<llm> C {
  provider ${provider}
  options {
    allowed_role_metadata "all"
${options}
  }
}

function F(text: string, img: image) -> string {
  client C
  prompt #"${prompt}"#
}
`;
}

async function bamlBody(baml: Baml, text: string, stream: boolean): Promise<string> {
  const runtime = baml.BamlRuntime.fromFiles("baml_src", { "baml_src/main.baml": text }, env);
  const context = new baml.BamlCtxManager(runtime);
  const args = { text: "there", img: baml.Image.fromBase64("image/png", png) };
  const request = await runtime.buildRequest("F", args, context.cloneContext(), null, null, stream, env);
  return JSON.stringify(request.body.json());
}

async function saplingBody(text: string, stream: boolean): Promise<string> {
  const { ir } = compile({ "main.baml": text });
  if (!ir) throw new Error("the comparison source does not compile");
  const runtime = SaplingRuntime.fromIr(ir, { env, readTextFile: null, providers: providerExtensions });
  const img = { kind: "media", type: "image", base64: png, mediaType: "image/png" };
  const request = await runtime.buildRequest("F", { text: "there", img }, { stream });
  return JSON.stringify(request.body);
}

export async function requestConformance(baml: Baml): Promise<ProviderConformance[]> {
  const result: ProviderConformance[] = [];
  for (const provider of Object.keys(clients)) {
    const row: ProviderConformance = {
      provider,
      compared: 0,
      identical: 0,
      documented: [],
      undocumented: [],
    };
    for (const stream of provider === "aws-bedrock" ? [false] : [false, true]) {
      for (const [shape, prompt] of Object.entries(prompts)) {
        const text = source(provider, prompt);
        const real = await bamlBody(baml, text, stream).catch((error: Error) => `error: ${error.message}`);
        const ours = await saplingBody(text, stream).catch((error: Error) => `error: ${error.message}`);
        const label = stream ? `${shape} (stream)` : shape;
        row.compared++;
        if (real === ours) row.identical++;
        else if (documented[provider]?.includes(shape) || (stream && streamUsage.has(provider))) {
          row.documented.push(label);
        } else row.undocumented.push(label);
      }
    }
    result.push(row);
  }
  return result;
}
