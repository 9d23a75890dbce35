import { describe, expect, it } from "vitest";
import { StreamEventError } from "../stream-client/index.js";
import { httpSource } from "./http-transport.js";
import { SaplingActionError, toHookError } from "./sapling-action-error.js";

interface Sent {
  url: string;
  init: RequestInit;
}

function fakeFetch(answer: () => Response): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetchFunction = (async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), init: init ?? {} });
    return answer();
  }) as typeof fetch;
  return { fetch: fetchFunction, sent };
}

describe("httpSource", () => {
  it("posts the arguments named as in .baml to /call/{Fn}, leaving out undefined ones", async () => {
    const { fetch, sent } = fakeFetch(() => Response.json({ name: "Jane" }));
    const source = httpSource<[string, string?], { name: string }>("ExtractResume", ["text", "hint"], {
      baseUrl: "/api",
      headers: { authorization: "Bearer k" },
      fetch,
    });
    expect(await source.call(["resume"], new AbortController().signal)).toEqual({ name: "Jane" });
    expect(sent[0]?.url).toBe("/api/call/ExtractResume");
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({ text: "resume" });
    expect(sent[0]?.init.headers).toMatchObject({
      authorization: "Bearer k",
      "content-type": "application/json",
    });
  });

  it("asks /stream/{Fn} for the delta format and passes the abort signal on", async () => {
    const { fetch, sent } = fakeFetch(
      () => new Response("", { headers: { "content-type": "text/event-stream" } }),
    );
    const controller = new AbortController();
    await httpSource("Classify", ["text"], { fetch }).stream(["hi"], controller.signal);
    expect(sent[0]?.url).toBe("/stream/Classify");
    expect(sent[0]?.init.headers).toMatchObject({ accept: "application/vnd.sapling-delta+json" });
    expect(sent[0]?.init.signal).toBe(controller.signal);
  });

  it("turns an error answer of /call into a SaplingActionError with the raw text", async () => {
    const { fetch } = fakeFetch(() =>
      Response.json(
        {
          error: {
            name: "BamlValidationError",
            code: "VALIDATION",
            message: "no Resume",
            raw_output: "Sorry.",
          },
        },
        { status: 422 },
      ),
    );
    const failure = await httpSource("ExtractResume", ["text"], { fetch })
      .call(["x"], new AbortController().signal)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SaplingActionError);
    expect(failure).toMatchObject({
      name: "BamlValidationError",
      status: 422,
      rawOutput: "Sorry.",
      raw_output: "Sorry.",
    });
  });

  it("says what came back when an answer is not JSON", async () => {
    const { fetch } = fakeFetch(() => new Response("<html>proxy error</html>", { status: 502 }));
    const failure = await httpSource("F", [], { fetch })
      .call([], new AbortController().signal)
      .catch((error: unknown) => error);
    expect((failure as Error).message).toBe("HTTP 502: <html>proxy error</html>");
  });
});

describe("toHookError", () => {
  it("rebuilds a stream's error event with the server's class name", () => {
    const error = toHookError(
      new StreamEventError({ name: "BamlTimeoutError", code: "TIMEOUT", message: "late" }),
    );
    expect(error).toBeInstanceOf(SaplingActionError);
    expect(error.name).toBe("BamlTimeoutError");
    expect((error as SaplingActionError).code).toBe("TIMEOUT");
  });

  it("keeps other errors as they are, and wraps what is not an Error", () => {
    const plain = new TypeError("failed to fetch");
    expect(toHookError(plain)).toBe(plain);
    expect(toHookError("boom").message).toBe("boom");
  });
});
