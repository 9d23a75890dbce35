/**
 * Golden generated clients: each folder under test/fixtures/codegen/ holds a project (`baml_src/`), the
 * expected `baml_client/`, and `type-checks.ts` (type-level assertions about the generated types, as a
 * snippet compiled next to the client). `UPDATE_EXPECT=1` rewrites the expected files. Every client is then
 * type-checked under strict settings together with its assertions.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { generateClient } from "../src/codegen/index.js";
import type { Ir } from "../src/ir/index.js";
import { compile, renderDiagnostics } from "../src/language/index.js";
import { typeCheck } from "./codegen-typecheck.js";

const fixturesRoot = resolve(import.meta.dirname, "fixtures", "codegen");
const update = process.env.UPDATE_EXPECT === "1";

interface Fixture {
  name: string;
  folder: string;
  ir: Ir;
  typeChecks: string;
}

function compileFixture(folder: string): Ir {
  const sources: Record<string, string> = {};
  for (const file of readdirSync(join(folder, "baml_src")).sort()) {
    sources[`baml_src/${file}`] = readFileSync(join(folder, "baml_src", file), "utf8");
  }
  const { ir, diagnostics } = compile(sources);
  if (!ir) throw new Error(`${folder} does not compile:\n${renderDiagnostics(diagnostics, sources)}`);
  return ir;
}

const fixtures: Fixture[] = await Promise.all(
  readdirSync(fixturesRoot)
    .filter((name) => existsSync(join(fixturesRoot, name, "baml_src")))
    .sort()
    .map(async (name) => {
      const folder = join(fixturesRoot, name);
      const module = (await import(join(folder, "type-checks.ts"))) as { typeChecks: string };
      return { name, folder, ir: compileFixture(folder), typeChecks: module.typeChecks };
    }),
);

function generate(fixture: Fixture): Record<string, string> {
  const [generator] = fixture.ir.generators;
  if (!generator) throw new Error(`${fixture.name}: the project has no generator block`);
  return generateClient(fixture.ir, generator);
}

/** Every file under `folder` (the `react/` subfolder of a React client too), relative, with `/`, sorted. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

/** Shared helpers for the type-level assertions in `typeChecks`. */
const prelude = `
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): void {}
assertType<true>();
`;

describe("golden generated clients", () => {
  it("has at least five fixture projects", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  for (const fixture of fixtures) {
    it(`${fixture.name}: generateClient output equals baml_client/`, () => {
      const files = generate(fixture);
      const clientFolder = join(fixture.folder, "baml_client");
      if (update) {
        rmSync(clientFolder, { recursive: true, force: true });
        mkdirSync(clientFolder, { recursive: true });
        for (const [file, text] of Object.entries(files)) {
          mkdirSync(dirname(join(clientFolder, file)), { recursive: true });
          writeFileSync(join(clientFolder, file), text);
        }
      }
      const expectedNames = existsSync(clientFolder) ? filesUnder(clientFolder) : [];
      expect(Object.keys(files).sort()).toEqual(expectedNames);
      for (const [file, text] of Object.entries(files)) {
        expect(text, `${fixture.name}/baml_client/${file} (rerun with UPDATE_EXPECT=1 if intended)`).toBe(
          readFileSync(join(clientFolder, file), "utf8"),
        );
      }
    });
  }

  for (const moduleFormat of ["esm", "cjs"] as const) {
    const selected = fixtures.filter(
      (fixture) => (fixture.ir.generators[0]?.moduleFormat ?? "esm") === moduleFormat,
    );
    it(`${moduleFormat} clients and their type-level assertions pass tsc --strict`, () => {
      expect(selected.length).toBeGreaterThan(0);
      const virtualFiles = new Map<string, string>();
      const rootFiles: string[] = [];
      for (const fixture of selected) {
        for (const file of Object.keys(generate(fixture)))
          rootFiles.push(join(fixture.folder, "baml_client", file));
        virtualFiles.set(
          join(fixture.folder, "type-checks.ts"),
          `${prelude}${fixture.typeChecks}\nexport {};\n`,
        );
      }
      const diagnostics = typeCheck({
        moduleFormat,
        rootFiles,
        virtualFiles,
        reportUnder: selected.map((fixture) => fixture.folder),
      });
      expect(diagnostics).toEqual([]);
      // One compiler program over every client and the runtime's sources: seconds alone, over a minute when
      // the suite's other files share the two cores (the limit guards against a hang, it times nothing).
    }, 180_000);
  }
});
