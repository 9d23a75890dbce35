/**
 * Request bodies over the BAML compatibility corpus: for every function of every materialised project
 * (bench/baml-corpus/materialise.sh, DIR/<group>/<name>/baml_src) that both BAML 0.226.2 and Sapling load,
 * the request of BAML's offline `buildRequest` and of Sapling's `runtime.buildRequest`, for the same
 * arguments (a sample value of each parameter's type: strings "text", ints 1, the first enum value, every
 * class field filled, one list item, one map entry, a base64 PNG for media) and an environment that names
 * every `env.X` the project reads. URL and JSON body are compared as text; a difference is described by
 * where it first appears. Nothing is sent.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { providerExtensions } from "../../src/cli/provider-extensions.js";
import type { Ir, Type } from "../../src/ir/index.js";
import { IrIndex } from "../../src/ir/index.js";
import { compile } from "../../src/language/index.js";
import { SaplingRuntime } from "../../src/runtime/index.js";
import type { loadBaml } from "./baml-parser.js";
import { firstDifference } from "./first-difference.js";

type Baml = Awaited<ReturnType<typeof loadBaml>>;

export interface CorpusRequestDifference {
  project: string;
  functionName: string;
  provider: string;
  /** Where the two requests first differ, or the error one side gave. */
  detail: string;
  /** Both requests (URL and body), when both were built, for a closer look. */
  requests?: { baml: unknown; sapling: unknown };
}

export interface CorpusRequestReport {
  directory: string;
  projects: number;
  /** Projects one side does not load (BAML refuses, Sapling refuses). */
  skippedProjects: string[];
  functions: number;
  identical: number;
  differences: CorpusRequestDifference[];
  /** Functions neither side builds a request for (both fail: an unreachable client, say). */
  bothFailed: number;
}

const png = "iVBORw0KGgo=";
/** The media type each kind of sample media is declared with (the bytes are a PNG header either way). */
const mediaTypes: Record<string, string> = {
  image: "image/png",
  audio: "audio/mp3",
  pdf: "application/pdf",
  video: "video/mp4",
};

function projectFolders(directory: string): string[] {
  const result: string[] = [];
  for (const group of readdirSync(directory, { withFileTypes: true })) {
    if (!group.isDirectory()) continue;
    for (const project of readdirSync(join(directory, group.name), { withFileTypes: true })) {
      const source = join(directory, group.name, project.name, "baml_src");
      if (project.isDirectory() && existsSync(source)) result.push(source);
    }
  }
  return result.sort();
}

function bamlFiles(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".baml")) continue;
    const path = join(entry.parentPath, entry.name);
    files[`baml_src/${relative(folder, path)}`] = readFileSync(path, "utf8");
  }
  return files;
}

/** Every `env.NAME` the sources read, set to a URL for names that look like one and a key otherwise. */
function environment(files: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {
    OPENAI_API_KEY: "k",
    ANTHROPIC_API_KEY: "k",
    GOOGLE_API_KEY: "k",
    GEMINI_API_KEY: "k",
    OPENROUTER_API_KEY: "k",
    AZURE_OPENAI_API_KEY: "k",
    AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
    AWS_SECRET_ACCESS_KEY: "secret",
    AWS_REGION: "us-east-1",
  };
  for (const text of Object.values(files)) {
    for (const match of text.matchAll(/\benv\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const name = match[1] ?? "";
      env[name] ??= /URL|ENDPOINT|HOST|BASE/i.test(name) ? "http://127.0.0.1:9/v1" : "k";
    }
  }
  return env;
}

/** A sample value of `type`; `media` says how each side spells a media value. */
function sample(type: Type, index: IrIndex, media: (kind: string) => unknown, depth = 0): unknown {
  if (depth > 8) throw new Error("a recursive type with no optional way out");
  switch (type.kind) {
    case "primitive":
      return type.name === "string"
        ? "text"
        : type.name === "int"
          ? 1
          : type.name === "float"
            ? 1.5
            : type.name === "bool"
              ? true
              : null;
    case "literal":
      return type.value;
    case "enum":
      return index.getEnum(type.name).values[0]?.name ?? "";
    case "class": {
      const value: Record<string, unknown> = {};
      for (const field of index.getClass(type.name).fields) {
        value[field.name] = sample(field.type, index, media, depth + 1);
      }
      return value;
    }
    case "list":
      return depth > 2 ? [] : [sample(type.item, index, media, depth + 1)];
    case "map": {
      if (depth > 2) return {};
      // An enum or literal key type takes its first value, as any other value of that type.
      const key = sample(type.key, index, media, depth + 1);
      return { [typeof key === "string" ? key : "key"]: sample(type.value, index, media, depth + 1) };
    }
    case "union":
      return type.options[0] === undefined ? null : sample(type.options[0], index, media, depth + 1);
    case "optional":
      return depth > 2 ? null : sample(type.inner, index, media, depth + 1);
    case "alias": {
      const alias = index.aliases.get(type.name);
      return alias === undefined ? null : sample(alias.type, index, media, depth + 1);
    }
    case "media":
      return media(type.name);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.slice(0, 160) ?? "";
}

/** BAML's request for a call, built offline with a fresh context (what a generated `b.request.Fn` does). */
export async function bamlRequest(
  baml: Baml,
  runtime: InstanceType<Baml["BamlRuntime"]>,
  functionName: string,
  args: Record<string, unknown>,
  env: Record<string, string>,
): Promise<{ url: string; body: unknown }> {
  const context = new baml.BamlCtxManager(runtime);
  const request = await runtime.buildRequest(
    functionName,
    args,
    context.cloneContext(),
    null,
    null,
    false,
    env,
  );
  return { url: request.url, body: request.body.json() };
}

export async function corpusRequestConformance(baml: Baml, directory: string): Promise<CorpusRequestReport> {
  const report: CorpusRequestReport = {
    directory,
    projects: 0,
    skippedProjects: [],
    functions: 0,
    identical: 0,
    differences: [],
    bothFailed: 0,
  };
  for (const folder of projectFolders(directory)) {
    const project = relative(directory, join(folder, ".."));
    const files = bamlFiles(folder);
    const env = environment(files);
    const { ir } = compile(files);
    let bamlRuntime: InstanceType<Baml["BamlRuntime"]> | undefined;
    try {
      bamlRuntime = baml.BamlRuntime.fromFiles("baml_src", files, env);
    } catch {
      bamlRuntime = undefined;
    }
    if (!ir || bamlRuntime === undefined) {
      const refused =
        !ir && bamlRuntime === undefined ? "both refuse it" : !ir ? "Sapling refuses it" : "BAML refuses it";
      report.skippedProjects.push(`${project} (${refused})`);
      continue;
    }
    report.projects++;
    const runtime = SaplingRuntime.fromIr(ir, { env, readTextFile: null, providers: providerExtensions });
    const index = new IrIndex(ir as Ir);
    for (const fn of ir.functions) {
      report.functions++;
      const provider = index.clients.get(fn.client)?.provider ?? fn.client.split("/")[0] ?? "";
      let ours: { url: string; body: unknown } | string;
      let theirs: { url: string; body: unknown } | string;
      try {
        const args = Object.fromEntries(
          fn.params.map((parameter) => [
            parameter.name,
            sample(parameter.type, index, (kind) => ({
              kind: "media",
              type: kind,
              base64: png,
              // What Sapling's Pdf.fromBase64(base64) sets, as BAML's does.
              mediaType: mediaTypes[kind],
            })),
          ]),
        );
        const request = await runtime.buildRequest(fn.name, args, { stream: false });
        ours = { url: request.url, body: JSON.parse(JSON.stringify(request.body)) as unknown };
      } catch (error) {
        ours = `Sapling: ${describe(error)}`;
      }
      try {
        const mediaClasses: Record<string, { fromBase64(type: string, base64: string): unknown }> = {
          image: baml.Image,
          audio: baml.Audio,
          video: baml.Video,
        };
        const args = Object.fromEntries(
          fn.params.map((parameter) => [
            parameter.name,
            sample(parameter.type, index, (kind) =>
              kind === "pdf"
                ? baml.Pdf.fromBase64(png)
                : mediaClasses[kind]?.fromBase64(mediaTypes[kind] ?? "", png),
            ),
          ]),
        );
        theirs = await bamlRequest(baml, bamlRuntime, fn.name, args, env);
      } catch (error) {
        theirs = `BAML: ${describe(error)}`;
      }
      if (typeof ours === "string" && typeof theirs === "string") {
        report.bothFailed++;
        continue;
      }
      const detail =
        typeof ours === "string"
          ? ours
          : typeof theirs === "string"
            ? theirs
            : ours.url !== theirs.url
              ? `url: BAML ${theirs.url}, Sapling ${ours.url}`
              : firstDifference(ours.body, theirs.body);
      if (detail === undefined && JSON.stringify(ours) === JSON.stringify(theirs)) report.identical++;
      else {
        report.differences.push({
          project,
          functionName: fn.name,
          provider,
          detail: detail ?? "the same values, keys in another order",
          ...(typeof ours === "string" || typeof theirs === "string"
            ? {}
            : { requests: { baml: theirs, sapling: ours } }),
        });
      }
    }
  }
  return report;
}

/**
 * The differences kept on purpose or out of Sapling's hands, each with where it is documented
 * (docs/providers.md, "Requests as BAML sends them"); a difference no rule names is reported as such.
 */
export const documentedCorpusDifferences: {
  reason: string;
  matches: (difference: CorpusRequestDifference) => boolean;
}[] = [
  {
    reason: "BAML checks `@assert` on arguments before it builds a request; Sapling's `b.request` does not",
    matches: (difference) => /^BAML: .*(Failed assert|Failed to evaluate assert)/.test(difference.detail),
  },
  {
    reason: "Bedrock body keys in another order (the same values)",
    matches: (difference) =>
      difference.provider === "aws-bedrock" && difference.detail === "the same values, keys in another order",
  },
  {
    reason: "OpenAI Responses body keys in another order (the same values)",
    matches: (difference) =>
      difference.provider === "openai-responses" &&
      difference.detail === "the same values, keys in another order",
  },
  {
    reason: "Bedrock `endpoint_url`: Sapling's request goes there; BAML's offline request ignores it",
    matches: (difference) => difference.provider === "aws-bedrock" && /^url: /.test(difference.detail),
  },
  {
    reason: "Bedrock `profile`: Sapling reads the profile's keys (the bench gives it no file reader)",
    matches: (difference) => /client option `profile`/.test(difference.detail),
  },
  {
    reason: "`azure-openai` without `api_version`: refused by Sapling (Azure requires it); BAML sends none",
    matches: (difference) => /`api_version`: is required/.test(difference.detail),
  },
  {
    reason:
      "`client_response_type` on `openai` / `openai-responses`: Sapling refuses or forwards it; BAML consumes it",
    matches: (difference) => /client_response_type/.test(difference.detail),
  },
  {
    reason: "round-robin: each runtime picks its first client at random",
    matches: (difference) =>
      difference.provider === "baml-round-robin" || difference.provider === "round-robin",
  },
  {
    reason:
      '`base_url env.X ?? "…"`: BAML fails to build the request ("builder error"); Sapling sends the variable\'s value',
    matches: (difference) => /^BAML: BamlError: builder error/.test(difference.detail),
  },
];
