/**
 * `sapling lsp` driven over JSON-RPC as an editor drives it: each test opens the example project
 * (examples/resume/baml_src) in a fresh server and checks one feature through the protocol.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CompletionItem,
  createProtocolConnection,
  type Hover,
  type Location,
  StreamMessageReader,
  StreamMessageWriter,
  type TextEdit,
} from "vscode-languageserver/node";
import { connect, fileUri, positionOf, startInProcessEditor, type TestEditor } from "./lsp-client.js";

const project = resolve(import.meta.dirname, "../../examples/resume/baml_src");
const resumeUri = fileUri(join(project, "resume.baml"));
const clientsUri = fileUri(join(project, "clients.baml"));
const resumeText = readFileSync(join(project, "resume.baml"), "utf8");
const clientsText = readFileSync(join(project, "clients.baml"), "utf8");

let editor: TestEditor | undefined;
afterEach(async () => {
  await editor?.close();
  editor = undefined;
});

/** A server with both example files open and their first diagnostics published. */
async function openExample(): Promise<TestEditor> {
  editor = await startInProcessEditor(resolve(project, ".."));
  editor.open(resumeUri, resumeText);
  editor.open(clientsUri, clientsText);
  await editor.diagnosticsFor(resumeUri, () => true);
  await editor.diagnosticsFor(clientsUri, () => true);
  return editor;
}

function hoverText(hover: Hover | null): string {
  const contents = hover?.contents;
  return typeof contents === "object" && contents !== null && "value" in contents ? contents.value : "";
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split("\n");
  const offset = (position: { line: number; character: number }) =>
    lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
  return [...edits]
    .sort((left, right) => offset(right.range.start) - offset(left.range.start))
    .reduce(
      (result, edit) =>
        result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end)),
      text,
    );
}

describe("sapling lsp over JSON-RPC", () => {
  it("publishes diagnostics as the text changes, with codes, across files, and clears them", async () => {
    const { diagnosticsFor, replace } = await openExample();
    expect(await diagnosticsFor(resumeUri, () => true)).toEqual([]);
    replace(resumeUri, "decision Decision", "decision Decisoin");
    const [unknown] = await diagnosticsFor(resumeUri, (items) => items.length > 0);
    expect(unknown).toMatchObject({
      code: "E0101",
      severity: 1,
      source: "sapling",
      range: { start: positionOf(replace(resumeUri, "Decisoin", "Decisoin"), "Decisoin") },
    });
    expect(unknown?.message).toMatch(/Decisoin/);
    replace(resumeUri, "Decisoin", "Decision");
    expect(await diagnosticsFor(resumeUri, (items) => items.length === 0)).toEqual([]);

    // Renaming a client in one file breaks the function that uses it in the other.
    replace(clientsUri, "client<llm> ResilientPipeline", "client<llm> Resilient");
    const [missing] = await diagnosticsFor(resumeUri, (items) => items.length > 0);
    expect(missing?.message).toMatch(/ResilientPipeline/);
    replace(clientsUri, "client<llm> Resilient ", "client<llm> ResilientPipeline ");
    expect(await diagnosticsFor(resumeUri, (items) => items.length === 0)).toEqual([]);
  });

  it("re-parses only the edited file on a change", async () => {
    const { connection, replace, diagnosticsFor } = await openExample();
    const before = (await connection.sendRequest("sapling/projectWork", { uri: resumeUri })) as {
      parses: number;
      checks: number;
    };
    replace(resumeUri, "decision Decision", "decision Decisoin");
    await diagnosticsFor(resumeUri, (items) => items.length > 0);
    const after = (await connection.sendRequest("sapling/projectWork", { uri: resumeUri })) as {
      parses: number;
      checks: number;
    };
    expect(after.parses - before.parses).toBe(1);
    expect(after.checks - before.checks).toBe(1);
  });

  it("shows a field's type and description on hover, and a client's provider", async () => {
    const { connection } = await openExample();
    const field = await connection.sendRequest("textDocument/hover", {
      textDocument: { uri: resumeUri },
      position: positionOf(resumeText, "years_of_experience int", 3),
    });
    expect(hoverText(field as Hover)).toContain("years_of_experience int");
    expect(hoverText(field as Hover)).toContain("field of class `CandidateEvaluation`");
    const described = await connection.sendRequest("textDocument/hover", {
      textDocument: { uri: resumeUri },
      position: positionOf(resumeText, "reasoning string", 2),
    });
    expect(hoverText(described as Hover)).toContain("채용 결정에 대한 논리적 근거 요약");
    const client = await connection.sendRequest("textDocument/hover", {
      textDocument: { uri: clientsUri },
      position: positionOf(clientsText, "strategy [GPT4oMini", 11),
    });
    expect(hoverText(client as Hover)).toContain("provider: `openai`");
    expect(hoverText(client as Hover)).toContain("model: `gpt-4o-mini`");
  });

  it("goes from a function's return type to the class, and from a client name to another file", async () => {
    const { connection } = await openExample();
    const definition = (await connection.sendRequest("textDocument/definition", {
      textDocument: { uri: resumeUri },
      position: positionOf(resumeText, "-> CandidateEvaluation", 5),
    })) as Location;
    expect(definition).toEqual({
      uri: resumeUri,
      range: {
        start: positionOf(resumeText, "CandidateEvaluation {"),
        end: positionOf(resumeText, "CandidateEvaluation {", 19),
      },
    });
    const client = (await connection.sendRequest("textDocument/definition", {
      textDocument: { uri: resumeUri },
      position: positionOf(resumeText, "client ResilientPipeline", 9),
    })) as Location;
    expect(client.uri).toBe(clientsUri);
    expect(client.range.start).toEqual(positionOf(clientsText, "ResilientPipeline {"));
  });

  it("finds every reference to a declaration", async () => {
    const { connection } = await openExample();
    const references = (await connection.sendRequest("textDocument/references", {
      textDocument: { uri: clientsUri },
      position: positionOf(clientsText, "GPT4oMini {"),
      context: { includeDeclaration: true },
    })) as Location[];
    expect(references.map((location) => location.range.start)).toEqual([
      positionOf(clientsText, "GPT4oMini {"),
      positionOf(clientsText, "GPT4oMini, LocalVLLM"),
    ]);
  });

  it("completes the project's classes and enums in a type position", async () => {
    const { connection, replace } = await openExample();
    const text = replace(resumeUri, "  achievements string[]\n", "  achievements string[]\n  best \n");
    const items = (await connection.sendRequest("textDocument/completion", {
      textDocument: { uri: resumeUri },
      position: positionOf(text, "  best ", 7),
    })) as CompletionItem[];
    const labels = items.map((item) => item.label);
    expect(labels).toEqual(
      expect.arrayContaining(["WorkHistory", "CandidateEvaluation", "Decision", "string", "int"]),
    );
  });

  it("completes fields in {{ arg.field }}, clients, providers and attributes", async () => {
    const { connection, replace } = await openExample();
    const complete = async (text: string, needle: string, delta: number) =>
      (
        (await connection.sendRequest("textDocument/completion", {
          textDocument: { uri: resumeUri },
          position: positionOf(text, needle, delta),
        })) as CompletionItem[]
      ).map((item) => item.label);
    let text = replace(
      resumeUri,
      "test EvaluateJane",
      'function Summarize(evaluation: CandidateEvaluation) -> string {\n  client GPT4oMini\n  prompt #"{{ evaluation.work_history }} {{ evaluation. }}"#\n}\n\ntest EvaluateJane',
    );
    expect(await complete(text, "{{ evaluation. }}", 14)).toEqual(
      expect.arrayContaining(["candidate_name", "skills", "work_history", "decision", "reasoning"]),
    );
    text = replace(resumeUri, "  client GPT4oMini\n", "  client \n");
    expect(await complete(text, "  client \n", 9)).toEqual(["GPT4oMini", "LocalVLLM", "ResilientPipeline"]);
    text = replace(resumeUri, "  reasoning string", "  reasoning string @");
    expect(await complete(text, "reasoning string @", 18)).toEqual(
      expect.arrayContaining(["@alias", "@description", "@check"]),
    );
    text = replace(resumeUri, "  decision Decision", "  decision Decision\n  @@check(named, {{ this. }})");
    expect(await complete(text, "{{ this. }}", 8)).toEqual(
      expect.arrayContaining(["candidate_name", "work_history"]),
    );
    const clients = replace(clientsUri, "provider openai\n", "provider \n");
    const providers = (await connection.sendRequest("textDocument/completion", {
      textDocument: { uri: clientsUri },
      position: positionOf(clients, "provider \n", 9),
    })) as CompletionItem[];
    expect(providers.map((item) => item.label)).toEqual(
      expect.arrayContaining(["openai", "anthropic", "openai-generic"]),
    );
  });

  it("renames a declaration in every file that uses it", async () => {
    const { connection } = await openExample();
    const edit = (await connection.sendRequest("textDocument/rename", {
      textDocument: { uri: resumeUri },
      position: positionOf(resumeText, "client ResilientPipeline", 10),
      newName: "SturdyPipeline",
    })) as { changes: Record<string, TextEdit[]> };
    expect(Object.keys(edit.changes).sort()).toEqual([clientsUri, resumeUri].sort());
    const renamedClients = applyEdits(clientsText, edit.changes[clientsUri] ?? []);
    const renamedResume = applyEdits(resumeText, edit.changes[resumeUri] ?? []);
    expect(renamedClients).toContain("client<llm> SturdyPipeline {");
    expect(renamedResume).toContain("client SturdyPipeline\n");
    expect(`${renamedClients}${renamedResume}`).not.toContain("ResilientPipeline");
    await expect(
      connection.sendRequest("textDocument/rename", {
        textDocument: { uri: resumeUri },
        position: positionOf(resumeText, "class WorkHistory", 7),
        newName: "Decision",
      }),
    ).rejects.toThrow(/already declares Decision/);
  });

  it("keeps hover and definition in the other files when one file has a syntax error", async () => {
    const { connection, replace, diagnosticsFor } = await openExample();
    replace(clientsUri, "retry_policy TwoRetries {", "retry_policy TwoRetries {{{ ((");
    await diagnosticsFor(clientsUri, (items) => items.some((item) => item.code === "E0001"));
    const hover = await connection.sendRequest("textDocument/hover", {
      textDocument: { uri: resumeUri },
      position: positionOf(resumeText, "skills string[]", 1),
    });
    expect(hoverText(hover as Hover)).toContain("skills string[]");
    const definition = (await connection.sendRequest("textDocument/definition", {
      textDocument: { uri: resumeUri },
      position: positionOf(resumeText, "decision Decision", 10),
    })) as Location;
    expect(definition.range.start).toEqual(positionOf(resumeText, "Decision {"));
  });

  it("formats through sapling fmt's formatter, and refuses a file with syntax errors", async () => {
    const { connection, replace } = await openExample();
    const messy = replace(resumeUri, "  company string\n", "  company    string\n");
    const edits = (await connection.sendRequest("textDocument/formatting", {
      textDocument: { uri: resumeUri },
      options: { tabSize: 2, insertSpaces: true },
    })) as TextEdit[];
    expect(applyEdits(messy, edits)).toBe(resumeText);
    replace(resumeUri, "class WorkHistory {", "class WorkHistory {{ ((");
    const refused = await connection.sendRequest("textDocument/formatting", {
      textDocument: { uri: resumeUri },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(refused).toEqual([]);
  });

  it("outlines a file and renders a test's prompt from its code lens", async () => {
    const { connection } = await openExample();
    const symbols = (await connection.sendRequest("textDocument/documentSymbol", {
      textDocument: { uri: resumeUri },
    })) as {
      name: string;
      children?: { name: string }[];
    }[];
    expect(symbols.map((symbol) => symbol.name)).toEqual([
      "Decision",
      "WorkHistory",
      "CandidateEvaluation",
      "EvaluateResume",
      "EvaluateJane",
    ]);
    expect(symbols[1]?.children?.map((child) => child.name)).toEqual([
      "company",
      "role",
      "duration_months",
      "achievements",
    ]);
    const lenses = (await connection.sendRequest("textDocument/codeLens", {
      textDocument: { uri: resumeUri },
    })) as {
      command: { title: string; command: string; arguments: unknown[] };
    }[];
    expect(lenses.map((lens) => lens.command.title)).toEqual([
      "Render prompt: EvaluateJane",
      "Render prompt: EvaluateResume",
    ]);
    const rendered = (await connection.sendRequest("workspace/executeCommand", {
      command: lenses[0]?.command.command,
      arguments: lenses[0]?.command.arguments,
    })) as string;
    expect(rendered).toContain("EvaluateResume::EvaluateJane");
    expect(rendered).toContain("Jane Doe — 8 years building distributed systems");
    expect(rendered).toContain("Answer in JSON using this schema");
    expect(rendered).toContain("message(s) for client GPT4oMini");
  });

  it("keeps several baml_src folders apart as separate projects", async () => {
    const root = mkdtempSync(join(tmpdir(), "sapling-lsp-"));
    for (const name of ["one", "two"]) {
      mkdirSync(join(root, name, "baml_src"), { recursive: true });
      writeFileSync(join(root, name, "baml_src", "types.baml"), `class Shared {\n  ${name} string\n}\n`);
    }
    writeFileSync(join(root, "two", "baml_src", "use.baml"), "class User {\n  shared Shared\n}\n");
    editor = await startInProcessEditor(root);
    const oneUri = fileUri(join(root, "one", "baml_src", "types.baml"));
    const useUri = fileUri(join(root, "two", "baml_src", "use.baml"));
    editor.open(oneUri, readFileSync(join(root, "one", "baml_src", "types.baml"), "utf8"));
    editor.open(useUri, readFileSync(join(root, "two", "baml_src", "use.baml"), "utf8"));
    // Two classes named Shared, one per project: no duplicate-declaration error in either.
    expect(await editor.diagnosticsFor(oneUri, () => true)).toEqual([]);
    expect(await editor.diagnosticsFor(useUri, () => true)).toEqual([]);
    const definition = (await editor.connection.sendRequest("textDocument/definition", {
      textDocument: { uri: useUri },
      position: { line: 1, character: 10 },
    })) as Location;
    expect(definition.uri).toBe(fileUri(join(root, "two", "baml_src", "types.baml")));
  });
});

describe("the sapling lsp --stdio executable", () => {
  it("answers initialize, publishes diagnostics, and exits 0 after shutdown and exit", async () => {
    const bin = resolve(import.meta.dirname, "../../src/cli/bin.ts");
    const child = spawn(process.execPath, ["--import", "tsx", bin, "lsp", "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const client = await connect(connection, resolve(project, ".."), async () => {});
    client.open(resumeUri, resumeText.replace("decision Decision", "decision Decisoin"));
    const diagnostics = await client.diagnosticsFor(resumeUri, (items) => items.length > 0);
    expect(diagnostics.map((item) => item.code)).toEqual(["E0101"]);
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    expect(await exited).toBe(0);
    connection.dispose();
  }, 30_000);
});
