import { describe, expect, it } from "vitest";
import { checkLocalRequest } from "./check-local-request.js";

const at = (headers: Record<string, string>, url = "http://127.0.0.1:2024/_dev/project") =>
  checkLocalRequest(new Request(url, { headers }), 2024);

describe("checkLocalRequest", () => {
  it("lets the page and local tools through", () => {
    expect(at({ host: "127.0.0.1:2024" })).toBeUndefined();
    expect(at({ host: "localhost:2024", origin: "http://localhost:2024" })).toBeUndefined();
    expect(
      at({ host: "[::1]:2024", origin: "http://[::1]:2024", "sec-fetch-site": "same-origin" }),
    ).toBeUndefined();
    expect(at({ host: "LOCALHOST:2024" })).toBeUndefined();
  });

  it("refuses a rebound host name, another port, and a host without the port", () => {
    expect(at({ host: "evil.example:2024" })).toMatch(
      /^Host "evil.example:2024" is not this server.*DNS rebinding/,
    );
    expect(at({ host: "127.0.0.1:2025" })).toMatch(/^Host/);
    expect(at({ host: "127.0.0.1" })).toMatch(/^Host/);
  });

  it("refuses foreign, null, https and malformed origins, and cross-site fetches", () => {
    for (const origin of [
      "http://evil.example",
      "http://127.0.0.1:3000",
      "null",
      "https://127.0.0.1:2024",
      "http://127.0.0.1:2024/path",
    ])
      expect(at({ host: "127.0.0.1:2024", origin }), origin).toMatch(/^Origin/);
    expect(at({ host: "127.0.0.1:2024", "sec-fetch-site": "cross-site" })).toMatch(
      /cross-site request is refused/,
    );
    expect(at({ host: "127.0.0.1:2024", "sec-fetch-site": "same-site" })).toMatch(
      /same-site request is refused/,
    );
  });

  it("accepts the default port left out of Host on port 80", () => {
    expect(
      checkLocalRequest(new Request("http://localhost/", { headers: { host: "localhost" } }), 80),
    ).toBeUndefined();
  });
});
