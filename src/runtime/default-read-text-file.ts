/**
 * The runtime's default file reader, for credentials given as a path (a `vertex-ai` key file in
 * `GOOGLE_APPLICATION_CREDENTIALS`). The runtime is browser-safe and may not import `node:` modules, so on
 * Node (≥ 20.16) it asks the running process for `node:fs/promises` through `process.getBuiltinModule`; in
 * browsers and edge workers there is no such capability and no default (a path is then refused by the
 * provider with a message saying what to pass instead).
 */

import type { ReadTextFile } from "../llm/index.js";

/** The part of Node's `process` used here, declared locally: outside Node `process` is absent. */
interface BuiltinModuleHost {
  getBuiltinModule?: (id: string) => unknown;
}

interface FileSystemPromises {
  readFile(path: string, encoding: "utf8"): Promise<string>;
}

let resolved: { reader: ReadTextFile | undefined } | undefined;

/**
 * Node's `fs.promises.readFile` as a `ReadTextFile`, or `undefined` when the host has no file system.
 * The same function every time, so key files read through it are cached for the whole process.
 */
export function defaultReadTextFile(): ReadTextFile | undefined {
  if (resolved === undefined) {
    resolved = { reader: nodeTextFileReader((globalThis as { process?: unknown }).process) };
  }
  return resolved.reader;
}

/**
 * A reader over `host.getBuiltinModule("node:fs/promises")`, or `undefined` when `host` (Node's `process`,
 * absent in browsers) has no such capability (Node before 20.16, Deno without Node compatibility, …).
 */
export function nodeTextFileReader(host: unknown): ReadTextFile | undefined {
  const getBuiltinModule = (host as BuiltinModuleHost | undefined)?.getBuiltinModule;
  if (typeof getBuiltinModule !== "function") return undefined;
  const fileSystem = getBuiltinModule.call(host, "node:fs/promises") as
    | Partial<FileSystemPromises>
    | undefined;
  const readFile = fileSystem?.readFile;
  if (typeof readFile !== "function") return undefined;
  return (path) => readFile.call(fileSystem, path, "utf8");
}
