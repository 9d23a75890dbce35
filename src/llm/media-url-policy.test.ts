import { describe, expect, it } from "vitest";
import { LlmMediaError } from "../provider-helpers/index.js";
import { createReplayFetch } from "../testing/index.js";
import type { ChatMessage } from "../util/index.js";
import { blockedAddressKind } from "./blocked-address.js";
import { createLanguageModel } from "./create-language-model.js";
import { allowedHostProblem, checkMediaUrl, type MediaUrlPolicy } from "./media-url-policy.js";

describe("blockedAddressKind", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.0.0.5", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.100.100.200", "carrier-grade NAT (also Alibaba Cloud metadata)"],
    ["0.0.0.0", "unspecified (this network)"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local (cloud metadata)"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["2002:c0a8:0101::1", "private"],
    ["fe80::1%eth0", "link-local"],
    ["fd00:ec2::254", "unique local (private; also AWS metadata fd00:ec2::254)"],
    ["ff02::1", "multicast"],
    ["not-an-ip", "not an IP address"],
    ["1::2::3", "not an IP address"],
    ["256.0.0.1", "not an IP address"],
  ])("%s is %s", (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it.each(["8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "%s is public",
    (address) => {
      expect(blockedAddressKind(address)).toBeUndefined();
    },
  );
});

const refusal = (url: string, policy: MediaUrlPolicy) =>
  checkMediaUrl(url, policy, "openai").then(
    () => undefined,
    (error: unknown) => {
      if (!LlmMediaError.isInstance(error)) throw error;
      return error.message;
    },
  );

describe("checkMediaUrl", () => {
  const dns: Record<string, string[]> = {
    "cdn.example.com": ["93.184.216.34"],
    "rebind.example.com": ["93.184.216.34", "10.0.0.7"],
    "intranet.corp": ["10.1.1.1"],
  };
  const resolveHost = async (host: string) => dns[host] ?? [];

  it("allows every URL without allowedHosts, and none with an empty list", async () => {
    expect(await refusal("http://127.0.0.1/x", {})).toBeUndefined();
    expect(await refusal("https://cdn.example.com/a.png", { allowedHosts: [] })).toMatch(
      /host cdn\.example\.com: the host is not allowed/,
    );
  });

  it("checks hosts matched by a pattern after DNS: one private address is enough to refuse", async () => {
    const policy = { allowedHosts: ["*"], resolveHost };
    expect(await refusal("https://cdn.example.com/a.png", policy)).toBeUndefined();
    expect(await refusal("https://rebind.example.com/a.png", policy)).toMatch(
      /resolves to 10\.0\.0\.7, which is private/,
    );
    expect(await refusal("http://169.254.169.254/latest/meta-data/", policy)).toMatch(/cloud metadata/);
    expect(await refusal("http://[::ffff:127.0.0.1]/", policy)).toMatch(/loopback/);
    expect(await refusal("http://unknown.example.com/", policy)).toMatch(/resolved to no address/);
    expect(await refusal("file:///etc/passwd", policy)).toMatch(/not allowed|only http/);
  });

  it("trusts a host listed by its exact name, private or not, and honours a listed port", async () => {
    expect(
      await refusal("http://intranet.corp/a.png", { allowedHosts: ["intranet.corp"], resolveHost }),
    ).toBe(undefined);
    expect(await refusal("http://127.0.0.1:8080/a.png", { allowedHosts: ["127.0.0.1:8080"] })).toBe(
      undefined,
    );
    expect(await refusal("http://127.0.0.1:8081/a.png", { allowedHosts: ["127.0.0.1:8080"] })).toMatch(
      /not allowed/,
    );
    expect(
      await refusal("https://img.cdn.example.com/a.png", { allowedHosts: ["*.example.com"], resolveHost }),
    ).toMatch(/no address/);
    expect(
      await refusal("https://cdn.example.com/a.png", { allowedHosts: ["*.example.com"], resolveHost }),
    ).toBe(undefined);
  });

  it("refuses a pattern-matched host when no resolver can say where it points", async () => {
    expect(await refusal("https://cdn.example.com/a.png", { allowedHosts: ["*"] })).toMatch(
      /cannot be checked here/,
    );
  });

  it("refuses URLs with credentials", async () => {
    expect(
      await refusal("https://user:pw@cdn.example.com/a.png", { allowedHosts: ["*"], resolveHost }),
    ).toMatch(/user name or password/);
  });

  it("says what is wrong with an allowed-host entry", () => {
    expect(allowedHostProblem("images.example.com")).toBeUndefined();
    expect(allowedHostProblem("*.example.com")).toBeUndefined();
    expect(allowedHostProblem("[::1]:8080")).toBeUndefined();
    expect(allowedHostProblem("https://example.com")).toMatch(/without scheme or path/);
    expect(allowedHostProblem("exa mple")).toMatch(/not a host name/);
  });
});

describe("media downloads", () => {
  const image = (url: string): ChatMessage[] => [
    { role: "user", parts: [{ type: "media", media: { kind: "media", type: "image", url } }] },
  ];
  const openAiAnswer = JSON.stringify({
    choices: [{ message: { content: "ok" }, finish_reason: "stop" }],
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a failure");
      },
      (error: unknown) => error as LlmMediaError,
    );

  it("refuses a body larger than the default limit from its content-length, before reading it", async () => {
    let llmCalls = 0;
    const fetch = createReplayFetch((call) => {
      if (call.url.endsWith(".png")) {
        return { body: "x", headers: { "content-length": String(64 * 1024 * 1024) } };
      }
      llmCalls++;
      return { body: openAiAnswer };
    });
    const model = createLanguageModel(
      "openai",
      { api_key: "k", media_url_handler: { image: "send_base64" } },
      { fetch },
    );
    const error = await failure(model.generate(image("https://cdn.example.com/big.png")));
    expect(error).toMatchObject({ code: "llm_media_error", reason: "too_large", host: "cdn.example.com" });
    expect(error.message).toContain(`limit of ${32 * 1024 * 1024} bytes`);
    expect(llmCalls).toBe(0);
  });

  it("gives up on a media host that never answers after timeoutMs", async () => {
    const fetch: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    const model = createLanguageModel(
      "openai",
      { api_key: "k", media_url_handler: { image: "send_base64" } },
      { fetch, mediaUrls: { timeoutMs: 5 } },
    );
    const error = await failure(model.generate(image("https://slow.example.com/a.png")));
    expect(error).toMatchObject({ reason: "timeout", host: "slow.example.com" });
  });

  it("stops after maxRedirects under a host policy", async () => {
    let hops = 0;
    const fetch = createReplayFetch(() => {
      hops++;
      return { status: 302, body: "", headers: { location: `https://cdn.example.com/${hops}.png` } };
    });
    const model = createLanguageModel(
      "openai",
      { api_key: "k", media_url_handler: { image: "send_base64" } },
      { fetch, mediaUrls: { allowedHosts: ["cdn.example.com"], maxRedirects: 3 } },
    );
    const error = await failure(model.generate(image("https://cdn.example.com/0.png")));
    expect(error).toMatchObject({ reason: "refused" });
    expect(error.message).toContain("more than 3 redirects");
    expect(hops).toBe(4);
  });
});
