/**
 * Does code written against BAML's generated client compile against Sapling's? BAML's own TypeScript
 * integration tests (`integ-tests/typescript/tests/*.ts`) are type-checked against the client Sapling
 * generates from the same `integ-tests/baml_src`, with `@boundaryml/baml` mapped to Sapling's runtime entry
 * (tsconfig `paths`) and vitest's globals standing in for jest's. A dev tool, not part of `npm run bench`
 * (it needs a BAML checkout, which is never committed here):
 *
 *   npx tsx bench/baml-integ-typecheck.ts --baml-git /work/.mirror/quencs+baml/repo [--skip-failing] [--keep DIR]
 *   npx tsx bench/baml-integ-typecheck.ts --baml /path/to/baml-checkout ...
 *
 * `--skip-failing` leaves out the .baml files Sapling does not compile yet (repeatedly, since removing one
 * can break another), so the count measures the client's surface rather than the compiler's gaps. Prints
 * the error count, the files left out, and the errors grouped by message and by kind: jest's globals
 * (vitest's stand in, `fail` and `jest.fn` have none), expression functions Sapling skips (W0306,
 * decision 0011), imports of packages that are not BAML's client (the SDKs `modular.test.ts` sends
 * `b.request` bodies with, AWS's credential helpers, `dotenv`: out of scope, never installed here), and
 * what is left: Sapling's.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { generateClient, resolveGenerators } from "../src/codegen/index.js";
import { compile } from "../src/language/index.js";

const repoRoot = resolve(import.meta.dirname, "..");

function argument(name: string): string | undefined {
  const position = process.argv.indexOf(name);
  return position === -1 ? undefined : process.argv[position + 1];
}

/** Copies `integ-tests/baml_src` and `integ-tests/typescript/tests` from a checkout or a bare git dir. */
function materialise(work: string): void {
  const gitDir = argument("--baml-git");
  const checkout = argument("--baml");
  const parts = ["integ-tests/baml_src", "integ-tests/typescript/tests"];
  if (gitDir !== undefined) {
    const archive = execFileSync("git", ["--git-dir", gitDir, "archive", "HEAD", ...parts], {
      maxBuffer: 1 << 30,
    });
    spawnSync("tar", ["-x", "-C", work], { input: archive });
  } else if (checkout !== undefined) {
    for (const part of parts) cpSync(join(checkout, part), join(work, part), { recursive: true });
  } else {
    throw new Error("give --baml-git GIT_DIR or --baml CHECKOUT (a copy of BoundaryML/baml)");
  }
}

function bamlFiles(folder: string): string[] {
  const result: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) result.push(...bamlFiles(path));
    else if (entry.name.endsWith(".baml")) result.push(path);
  }
  return result.sort();
}

/** Compiles `baml_src`; with `skipFailing`, drops files with errors until the rest compiles. */
function compileProject(source: string, skipFailing: boolean) {
  const files = Object.fromEntries(bamlFiles(source).map((path) => [path, readFileSync(path, "utf8")]));
  const skipped: string[] = [];
  for (;;) {
    const result = compile(files);
    if (result.ir) {
      const expressionFunctions = new Set(
        result.diagnostics
          .filter((item) => item.code === "W0306")
          .map((item) => /Function "([^"]+)"/.exec(item.message)?.[1] ?? ""),
      );
      return { ir: result.ir, skipped, expressionFunctions };
    }
    const failing = new Set(
      result.diagnostics.filter((item) => item.severity === "error").map((item) => item.file),
    );
    if (!skipFailing || failing.size === 0) {
      throw new Error(
        `baml_src has ${failing.size} files with errors; pass --skip-failing to leave them out`,
      );
    }
    for (const file of failing) {
      delete files[file];
      skipped.push(relative(source, file));
    }
  }
}

const work = argument("--keep") ?? mkdtempSync(join(tmpdir(), "baml-integ-"));
mkdirSync(work, { recursive: true });
materialise(work);
const source = join(work, "integ-tests", "baml_src");
const { ir, skipped, expressionFunctions } = compileProject(source, process.argv.includes("--skip-failing"));

// BAML's tests import `../baml_client`, written by the generator whose output_dir is "../typescript".
const typescript = join(work, "integ-tests", "typescript");
const generator = resolveGenerators(ir)
  .map((item) => item.generator)
  .find((item) => resolve(source, item.outputDir) === typescript);
if (!generator) throw new Error('no typescript generator with output_dir "../typescript"');
const clientFolder = join(typescript, "baml_client");
rmSync(clientFolder, { recursive: true, force: true });
for (const [name, text] of Object.entries(generateClient(ir, { ...generator, moduleFormat: "cjs" }))) {
  mkdirSync(dirname(join(clientFolder, name)), { recursive: true });
  writeFileSync(join(clientFolder, name), text);
}

// Type packages (node, vitest) resolve from this repository's node_modules.
if (!existsSync(join(typescript, "node_modules"))) {
  symlinkSync(join(repoRoot, "node_modules"), join(typescript, "node_modules"), "dir");
}
const runtimeEntry = join(repoRoot, "src", "runtime", "index.ts");
writeFileSync(
  join(typescript, "tsconfig.json"),
  JSON.stringify(
    {
      compilerOptions: {
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        lib: ["es2022", "dom", "dom.iterable"],
        strict: true,
        esModuleInterop: true,
        skipLibCheck: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        types: ["node", "vitest/globals"],
        paths: {
          "@boundaryml/baml": [runtimeEntry],
          "@boundaryml/baml/*": [runtimeEntry],
          "sapling-llm/runtime": [runtimeEntry],
          // The generated client also imports the package's other entry points (batch, aws-bedrock, …).
          "sapling-llm/*": [join(repoRoot, "src", "*", "index.ts")],
        },
      },
      include: ["tests/**/*", "baml_client/**/*"],
    },
    null,
    2,
  ),
);
const tsc = spawnSync(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", typescript], {
  encoding: "utf8",
  maxBuffer: 1 << 28,
});
const errors = tsc.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
const byMessage = new Map<string, number>();
const byFile = new Map<string, number>();
for (const line of errors) {
  const file = line.slice(0, line.indexOf("("));
  byFile.set(file, (byFile.get(file) ?? 0) + 1);
  const message = line.slice(line.indexOf("error TS")).replace(/'[^']*'/g, (text) => text);
  byMessage.set(message, (byMessage.get(message) ?? 0) + 1);
}
/** Packages the tests import that are not BAML's client (other vendors' SDKs, AWS helpers, dotenv). */
const outOfScopeModules = [
  "openai",
  "@anthropic-ai/sdk",
  "@google/generative-ai",
  "@smithy/signature-v4",
  "@smithy/protocol-http",
  "@aws-sdk/credential-provider-node",
  "@aws-sdk/client-sts",
  "@aws-crypto/sha256-js",
  "dotenv",
];
function kindOf(line: string): string {
  const message = line.slice(line.indexOf("error TS"));
  if (/TS2304: Cannot find name 'fail'|TS2708: Cannot use namespace 'jest'/.test(message)) {
    return "jest globals";
  }
  const missing = /TS2307: Cannot find module '([^']+)'/.exec(message)?.[1];
  if (missing && outOfScopeModules.some((name) => missing === name || missing.startsWith(`${name}/`))) {
    return "packages that are not BAML's client (out of scope)";
  }
  const property = /Property '([^']+)' does not exist on type 'Baml(?:Async|Sync|Stream)Client'/.exec(
    message,
  )?.[1];
  if (property && expressionFunctions.has(property)) return "expression functions Sapling skips";
  return "Sapling's";
}
const byKind = new Map<string, number>();
for (const line of errors) byKind.set(kindOf(line), (byKind.get(kindOf(line)) ?? 0) + 1);

console.log(`work folder: ${work}`);
console.log(`baml files left out (${skipped.length}): ${skipped.join(", ") || "none"}`);
console.log(`tsc --strict errors: ${errors.length}`);
console.log("\nby kind:");
for (const [kind, count] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`  ${count}\t${kind}`);
console.log("\nby file:");
for (const [file, count] of [...byFile].sort((a, b) => b[1] - a[1])) console.log(`  ${count}\t${file}`);
console.log("\nby message:");
for (const [message, count] of [...byMessage].sort((a, b) => b[1] - a[1]))
  console.log(`  ${count}\t${message}`);
