/**
 * The file reader the CLI gives the runtime, for credentials named by path (a `vertex-ai` key file in
 * `GOOGLE_APPLICATION_CREDENTIALS` or `credentials`; the AWS shared files of `aws-bedrock` profiles).
 * Relative paths resolve against the command's working directory, as Google's libraries and BAML resolve
 * them.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

/** Reads UTF-8 text files, resolving relative paths against `cwd`. */
export function textFileReader(cwd: string): (path: string) => Promise<string> {
  return (path) => readFile(resolve(cwd, path), "utf8");
}
