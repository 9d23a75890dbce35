/**
 * The request-body fixtures (test/fixtures/requests) built by the real BAML 0.226.2's offline
 * `buildRequest`: a case without `--- differs:` must get Sapling's expected body, byte for byte (keys in
 * order); a case with it must get its `--- baml:` body, so a documented difference stays true.
 */
import { type RequestCase, readRequestCases } from "../../test/request-body-cases.js";
import type { loadBaml } from "./baml-parser.js";

type Baml = Awaited<ReturnType<typeof loadBaml>>;

export interface RequestFixtureConformance {
  compared: number;
  /** Cases whose BAML body is Sapling's. */
  identical: number;
  /** Deliberate differences whose BAML body is still the recorded one. */
  documented: string[];
  /** Cases where BAML's body is neither: the fixture or the documentation is wrong. */
  mismatched: string[];
}

interface MediaArgument {
  kind: "media";
  type: "image" | "audio" | "pdf" | "video";
  url?: string;
  base64?: string;
  mediaType?: string;
}

function bamlArgument(baml: Baml, value: unknown): unknown {
  const media = value as MediaArgument | null;
  if (media === null || typeof media !== "object" || media.kind !== "media") return value;
  const classes = { image: baml.Image, audio: baml.Audio, pdf: baml.Pdf, video: baml.Video };
  const kind = classes[media.type];
  return media.url !== undefined
    ? kind.fromUrl(media.url, media.mediaType)
    : kind.fromBase64(media.mediaType ?? "", media.base64 ?? "");
}

async function bamlBody(baml: Baml, item: RequestCase): Promise<string> {
  const runtime = baml.BamlRuntime.fromFiles(
    "baml_src",
    { "baml_src/main.baml": item.fixture.baml },
    item.env,
  );
  const context = new baml.BamlCtxManager(runtime);
  const args = Object.fromEntries(
    Object.entries(item.args).map(([name, value]) => [name, bamlArgument(baml, value)]),
  );
  const request = await runtime.buildRequest(
    item.functionName,
    args,
    context.cloneContext(),
    null,
    null,
    item.stream,
    item.env,
  );
  return JSON.stringify(request.body.json());
}

export async function requestFixtureConformance(baml: Baml): Promise<RequestFixtureConformance> {
  const result: RequestFixtureConformance = { compared: 0, identical: 0, documented: [], mismatched: [] };
  for (const item of readRequestCases()) {
    const real = await bamlBody(baml, item).catch((error: Error) => `error: ${error.message}`);
    const label = item.fixture.name;
    result.compared++;
    if (item.differs === undefined) {
      const expected = JSON.stringify(JSON.parse(item.fixture.expect ?? "null"));
      if (real === expected) result.identical++;
      else result.mismatched.push(label);
    } else if (real === JSON.stringify(JSON.parse(item.bamlBody ?? "null"))) result.documented.push(label);
    else result.mismatched.push(`${label} (BAML: ${real.slice(0, 300)})`);
  }
  return result;
}
