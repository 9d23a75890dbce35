/**
 * The `openai-transcriptions` provider through the runtime and the mock LLM server: the audio the prompt
 * renders goes up as a multipart form shaped as BAML 0.226.2 sends it (model, prompt, options, stream,
 * file), the answer's `text` is parsed toward the return type, and a prompt without exactly one audio
 * value fails before anything is sent, naming the provider.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../src/language/index.js";
import { Audio, SaplingRuntime } from "../src/runtime/index.js";
import { type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";

const source = (streaming: string) => `
client<llm> Whisper {
  provider openai-transcriptions
  options {
    model "whisper-1"
    base_url env.BASE_URL
    api_key "sk-test"
    language "en"
    temperature 0.2
    ${streaming}
  }
}
class Words { words string[] }
function Transcribe(clip: audio, topic: string) -> Words {
  client Whisper
  prompt #"About {{ topic }}. {{ clip }}"#
}
function NoAudio(topic: string) -> string {
  client Whisper
  prompt #"About {{ topic }}."#
}
`;

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlmServer();
});
afterAll(() => server.close());

function runtime(streaming = ""): SaplingRuntime {
  const { ir, diagnostics } = compile({ "main.baml": source(streaming) });
  if (!ir) throw new Error(diagnostics.map((diagnostic) => diagnostic.message).join("; "));
  return SaplingRuntime.fromIr(ir, { env: { BASE_URL: server.baseUrls.transcriptions } });
}

const clip = Audio.fromBase64("audio/wav", Buffer.from("RIFF-not-really-audio").toString("base64"));

describe("openai-transcriptions", () => {
  it("uploads the audio as a multipart form and parses the transcript", async () => {
    server.scriptFor("transcriptions", { text: '{"words": ["hello", "world"]}' });
    const value = await runtime().call("Transcribe", { clip, topic: "greetings" });
    expect(value).toEqual({ words: ["hello", "world"] });
    const request = server.requests.at(-1);
    expect(request?.path).toBe("/v1/audio/transcriptions");
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(Object.keys(request?.body ?? {})).toEqual(["model", "prompt", "language", "temperature", "file"]);
    expect(request?.body).toMatchObject({
      model: "whisper-1",
      prompt: "About greetings.",
      language: "en",
      temperature: "0.2",
      file: {
        filename: "audio.wav",
        type: "audio/wav",
        base64: Buffer.from("RIFF-not-really-audio").toString("base64"),
      },
    });
  });

  it("streams as BAML does: one whole request, unless supports_streaming is set", async () => {
    server.scriptFor("transcriptions", { text: '{"words": ["a", "b"]}' });
    const whole = runtime().stream("Transcribe", { clip, topic: "t" });
    expect(await whole.getFinalResponse()).toEqual({ words: ["a", "b"] });
    expect(server.requests.at(-1)?.stream).toBe(false);

    server.scriptFor("transcriptions", { text: '{"words": ["c", "d"]}', chunkSize: 4 });
    const streamed = runtime("supports_streaming true").stream("Transcribe", { clip, topic: "t" });
    const partials: unknown[] = [];
    for await (const partial of streamed) partials.push(partial);
    expect(await streamed.getFinalResponse()).toEqual({ words: ["c", "d"] });
    expect(partials.length).toBeGreaterThan(0);
    const request = server.requests.at(-1);
    expect(request?.stream).toBe(true);
    expect(request?.body.stream).toBe("true");
    expect(request?.chunksSent).toBeGreaterThan(1);
  });

  it("refuses a prompt without exactly one audio value, before sending", async () => {
    const before = server.requestCount();
    await expect(runtime().call("NoAudio", { topic: "t" })).rejects.toThrow(
      /openai-transcriptions call uploads one audio file.*found: none/,
    );
    expect(server.requestCount()).toBe(before);
  });
});
