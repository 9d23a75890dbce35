import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  answer,
  type MockAnswer,
  type MockLlmServer,
  serverError,
  startMockLlmServer,
} from "../../testing/index.js";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

/**
 * A project whose tests cover every outcome. The mock model answers by the `case:` word in the prompt, so
 * the answers do not depend on the order parallel tests reach it.
 */
const source = `
class Person {
  @@dynamic
  name string
  age int
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
  }
}

client<llm> Other {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "other-model"
  }
}

function ExtractPerson(text: string) -> Person {
  client Mock
  prompt #"
    Extract: {{ text }}
    {{ ctx.output_format }}
  "#
}

function Describe(photo: image) -> string {
  client Mock
  prompt #"
    {{ _.role("user") }} case:photo {{ photo }}
  "#
}

test Ada {
  functions [ExtractPerson]
  args { text "case:ada" }
  @@check(has_name, {{ this.name|length > 0 }})
  @@assert({{ _.checks.has_name and this.age > 18 }})
}

test Kid {
  functions [ExtractPerson]
  args { text "case:kid" }
  @@assert(adult, {{ this.age >= 18 }})
  @@assert({{ this.name == "never evaluated" }})
}

test LongName {
  functions [ExtractPerson]
  args { text "case:ada" }
  @@check(short_name, {{ this.name|length < 5 }})
  @@assert({{ this.age > 0 }})
}

test Broken {
  functions [ExtractPerson]
  args { text "case:upstream-down" }
}

test Rambling {
  functions [ExtractPerson]
  args { text "case:no-json" }
}

test WithEmail {
  functions [ExtractPerson]
  type_builder {
    dynamic class Person {
      email string
    }
  }
  args { text "case:email" }
  @@assert({{ this.email == "ada@example.com" }})
}

test Photo {
  functions [Describe]
  args {
    photo { file "pictures/dot.png" }
  }
  @@assert({{ "dot" in this }})
}
`;

const ANSWERS: Record<string, () => MockAnswer> = {
  "case:ada": () => answer('{"name": "Ada Lovelace", "age": 36}', { headersDelayMs: 40 }),
  "case:kid": () => answer('{"name": "Tim", "age": 10}', { headersDelayMs: 40 }),
  "case:upstream-down": () => serverError(500, "upstream is down"),
  "case:no-json": () => answer("I would rather talk about the weather."),
  "case:email": () => answer('{"name": "Ada", "age": 36, "email": "ada@example.com"}'),
  "case:photo": () => answer("A single black dot."),
};

let server: MockLlmServer;
let root: string;
let peakConcurrency = 0;

beforeAll(async () => {
  server = await startMockLlmServer({
    respond: (request) => {
      peakConcurrency = Math.max(peakConcurrency, server.activeRequests());
      const prompt = JSON.stringify(request.body.messages);
      const key = Object.keys(ANSWERS).find((word) => prompt.includes(word));
      return key ? ANSWERS[key]?.() : undefined;
    },
  });
  root = mkdtempSync(join(tmpdir(), "sapling-test-"));
  mkdirSync(join(root, "baml_src", "pictures"), { recursive: true });
  writeFileSync(join(root, "baml_src", "main.baml"), source);
  writeFileSync(
    join(root, "baml_src", "pictures", "dot.png"),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  );
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  peakConcurrency = 0;
});

function context(overrides: { isTTY?: boolean; interrupted?: Promise<void> } = {}) {
  return captureContext({ cwd: root, env: { MOCK_URL: server.baseUrls.openai }, ...overrides });
}

describe("sapling test", () => {
  it("runs every test, reports each outcome and a summary table, and exits 1 on failures", async () => {
    const run = context();
    expect(await main(["test"], run)).toBe(1);
    const { stdout } = run.output();
    expect(stdout).toMatch(/^PASS {3}ExtractPerson::Ada {2}\(\d+\.\ds\)$/m);
    expect(stdout).toMatch(
      /^FAIL {3}ExtractPerson::Kid .*@@assert\(adult, \{\{ this\.age >= 18 \}\}\) failed/m,
    );
    expect(stdout).toMatch(/^FAIL {3}ExtractPerson::LongName .*@@check\(short_name/m);
    expect(stdout).toMatch(/^ERROR {2}ExtractPerson::Broken .*upstream is down/m);
    expect(stdout).toMatch(/^ERROR {2}ExtractPerson::Rambling .*BamlValidationError/m);
    expect(stdout).toMatch(/^PASS {3}ExtractPerson::WithEmail/m);
    expect(stdout).toMatch(/^PASS {3}Describe::Photo/m);
    expect(stdout).toContain("Function       Test       Status  Time  Detail");
    expect(stdout).toMatch(/^ExtractPerson {2}Ada {8}PASS {4}\d+\.\ds {2}2 constraints held$/m);
    expect(stdout).toContain("7 tests: 3 passed, 2 failed, 2 errors");
    // Plain lines when stdout is not a terminal: nothing rewritten in place.
    expect(stdout).not.toContain("\u001b[");
  });

  it("stops at a failed @@assert and keeps evaluating after a failed @@check", async () => {
    const junitPath = join(root, "report.xml");
    expect(await main(["test", "-i", "::Kid", "-i", "::LongName", "--junit", "report.xml"], context())).toBe(
      1,
    );
    const xml = readFileSync(junitPath, "utf8");
    expect(xml).toContain('failure message="@@assert(adult, {{ this.age &gt;= 18 }}) failed');
    expect(xml).not.toContain("never evaluated");
    expect(xml).toContain("@@check(short_name, {{ this.name|length &lt; 5 }}) failed");
  });

  it("sends media files relative to the .baml file, and test type_builder fields reach the parser", async () => {
    expect(await main(["test", "-i", "Describe::Photo", "-i", "::WithEmail"], context())).toBe(0);
    const photoRequest = server.requests.find((request) =>
      JSON.stringify(request.body).includes("case:photo"),
    );
    const base64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString("base64");
    expect(JSON.stringify(photoRequest?.body.messages)).toContain(`data:image/png;base64,${base64}`);
    const emailRequest = server.requests.find((request) =>
      JSON.stringify(request.body).includes("case:email"),
    );
    expect(JSON.stringify(emailRequest?.body.messages)).toContain("email");
  });

  it("--client runs the tests with another client; an undeclared name is refused before any call", async () => {
    expect(await main(["test", "-i", "::Ada", "--client", "Other"], context())).toBe(0);
    expect(server.requests.map((request) => request.model)).toEqual(["other-model"]);
    const unknown = context();
    expect(await main(["test", "--client", "Mock2"], unknown)).toBe(1);
    expect(unknown.output().stderr).toBe(
      'sapling test: --client Mock2 is not a client of the project (clients: Mock, Other); name a declared client or "provider/model".\n',
    );
    expect(server.requests).toHaveLength(1);
  });

  it("selects with include and exclude patterns and lists without running", async () => {
    const run = context();
    expect(
      await main(["test", "--list", "-i", "ExtractPerson::*", "-x", "::Broken", "-x", "Ramb*"], run),
    ).toBe(0);
    expect(run.output().stdout).toBe(
      [
        "ExtractPerson::Ada",
        "ExtractPerson::Kid",
        "ExtractPerson::LongName",
        "ExtractPerson::WithEmail",
        "4 tests",
        "",
      ].join("\n"),
    );
    expect(server.requests).toHaveLength(0);
    const byName = context();
    expect(await main(["test", "--list", "-i", "Describe"], byName)).toBe(0);
    expect(byName.output().stdout).toBe("Describe::Photo\n1 test\n");
  });

  it("exits 0 when every selected test passes", async () => {
    const run = context();
    expect(await main(["test", "-i", "ExtractPerson::Ada"], run)).toBe(0);
    expect(run.output().stdout).toContain("1 test: 1 passed");
  });

  it("exits 4 when no test is selected, 0 with --pass-if-no-tests", async () => {
    const none = context();
    expect(await main(["test", "-i", "Nothing::*"], none)).toBe(4);
    expect(none.output().stderr).toContain("No tests matching the --include/--exclude patterns");
    expect(await main(["test", "-i", "Nothing::*", "--pass-if-no-tests"], context())).toBe(0);
  });

  it("runs at most --parallel tests at once", async () => {
    expect(
      await main(["test", "-i", "::Ada", "-i", "::Kid", "-i", "::LongName", "--parallel", "1"], context()),
    ).toBe(1);
    expect(peakConcurrency).toBe(1);
    peakConcurrency = 0;
    expect(
      await main(["test", "-i", "::Ada", "-i", "::Kid", "-i", "::LongName", "--parallel", "3"], context()),
    ).toBe(1);
    expect(peakConcurrency).toBeGreaterThan(1);
    const bad = context();
    expect(await main(["test", "--parallel", "0"], bad)).toBe(2);
  });

  it("shows a live status line on a terminal", async () => {
    const run = context({ isTTY: true });
    expect(await main(["test", "-i", "::Ada", "-i", "::Kid"], run)).toBe(1);
    const { stdout } = run.output();
    expect(stdout).toContain("\r\u001b[2K");
    expect(stdout).toMatch(/0\/2 done · 0 passed · 0 failed · running: ExtractPerson::Ada/);
  });

  it("cancels on interrupt and exits 3", async () => {
    let interrupt: () => void = () => {};
    const interrupted = new Promise<void>((resolve) => {
      interrupt = resolve;
    });
    const run = context({ interrupted });
    const exit = main(["test", "-i", "::Ada", "-i", "::Kid", "--parallel", "1"], run);
    setTimeout(interrupt, 10);
    expect(await exit).toBe(3);
    expect(run.output().stdout).toContain("2 cancelled");
  });
});
