/**
 * Type-checks generated clients with the TypeScript compiler API, under options stricter than most
 * applications use (an application compiles `baml_client/` with *its* tsconfig, so generated code must
 * pass the strictest common settings), with `sapling-llm/runtime` resolved to src/runtime/index.ts (`sapling-llm/constraints` to src/constraints, `sapling-llm/batch` to src/batch, `sapling-llm/aws-bedrock` to src/aws-bedrock, `sapling-llm/vertex-ai` to src/vertex-ai, `sapling-llm/react` to src/react, `sapling-llm/sync` to src/sync), `sapling`
 * (the compiler `type_builder.ts` imports for addBaml) to src/index.ts, and no
 * `@types/node` (generated code must not need Node to type-check: it also runs in browsers).
 */
import { resolve } from "node:path";
import ts from "typescript";

const runtimeEntry = resolve(import.meta.dirname, "..", "src", "runtime", "index.ts");
const rootEntry = resolve(import.meta.dirname, "..", "src", "index.ts");
const constraintsEntry = resolve(import.meta.dirname, "..", "src", "constraints", "index.ts");
const batchEntry = resolve(import.meta.dirname, "..", "src", "batch", "index.ts");
const awsBedrockEntry = resolve(import.meta.dirname, "..", "src", "aws-bedrock", "index.ts");
const vertexAiEntry = resolve(import.meta.dirname, "..", "src", "vertex-ai", "index.ts");
const reactEntry = resolve(import.meta.dirname, "..", "src", "react", "index.ts");
const syncEntry = resolve(import.meta.dirname, "..", "src", "sync", "index.ts");

/** "declared but never used" diagnostics. */
const unusedCodes = new Set([6133, 6192, 6196, 6198, 6205]);

export interface TypeCheckInput {
  moduleFormat: "esm" | "cjs";
  /** Files on disk to check (generated clients), and in-memory files (type-level test snippets). */
  rootFiles: string[];
  virtualFiles: Map<string, string>;
  /** Only diagnostics in files under these folders are reported (the runtime's own files are not ours). */
  reportUnder: string[];
}

export function typeCheck(input: TypeCheckInput): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noPropertyAccessFromIndexSignature: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
    // The React hooks are `.tsx` modules (`typescript/react` generators), as BAML names them.
    jsx: ts.JsxEmit.ReactJSX,
    types: [],
    paths: {
      "sapling-llm/runtime": [runtimeEntry],
      "sapling-llm/constraints": [constraintsEntry],
      "sapling-llm/batch": [batchEntry],
      "sapling-llm/aws-bedrock": [awsBedrockEntry],
      "sapling-llm/vertex-ai": [vertexAiEntry],
      "sapling-llm/react": [reactEntry],
      "sapling-llm/sync": [syncEntry],
      "sapling-llm": [rootEntry],
    },
    ...(input.moduleFormat === "esm"
      ? {
          module: ts.ModuleKind.NodeNext,
          moduleResolution: ts.ModuleResolutionKind.NodeNext,
          verbatimModuleSyntax: true,
        }
      : { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }),
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (fileName) => input.virtualFiles.get(fileName) ?? readFile(fileName);
  host.fileExists = (fileName) => input.virtualFiles.has(fileName) || fileExists(fileName);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = input.virtualFiles.get(fileName);
    return text !== undefined
      ? ts.createSourceFile(fileName, text, languageVersion, true)
      : getSourceFile(fileName, languageVersion, onError, shouldCreate);
  };
  const program = ts.createProgram([...input.rootFiles, ...input.virtualFiles.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => {
      const file = diagnostic.file?.fileName;
      // Assertion snippets declare helper types they may not all use; unused-name reports there are noise.
      if (file !== undefined && input.virtualFiles.has(file) && unusedCodes.has(diagnostic.code))
        return false;
      return file === undefined || input.reportUnder.some((folder) => file.startsWith(folder));
    })
    .map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
      if (!diagnostic.file || diagnostic.start === undefined) return message;
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${diagnostic.file.fileName}:${line + 1}:${character + 1}: ${message}`;
    });
}
