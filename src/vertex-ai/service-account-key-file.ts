/**
 * A service-account key given as a file path (`credentials "keys/sa.json"`,
 * `GOOGLE_APPLICATION_CREDENTIALS=/path/key.json`), read through the `readTextFile` the host injects: the
 * `vertex-ai` room is browser-safe and imports no file system, so only hosts that can read files (Node: the
 * runtime's default, the CLI) pass one. Without it a path fails with a message saying what works instead.
 *
 * A key is read once per reader and path, then reused for the life of the process (as access tokens are
 * cached per key); a read or parse that fails is not cached, so fixing the file fixes the next call.
 */
import type { ReadTextFile } from "../llm/index.js";
import { LlmOptionsError, ReadCache } from "../provider-helpers/index.js";
import { readServiceAccountKey, type ServiceAccountKey } from "./google-service-account-token.js";

/** Keys by path, per reader (see `ReadCache`). */
const loadedKeys = new ReadCache<ServiceAccountKey>();

/**
 * The key in the file at `path`. `source` names the option or environment variable that gave the path.
 * Throws `LlmOptionsError` naming the path and `source` when the file cannot be read, is not JSON, or is
 * not a service-account key.
 */
export function loadServiceAccountKeyFile(
  path: string,
  source: string,
  readTextFile: ReadTextFile,
  provider: string,
): Promise<ServiceAccountKey> {
  return loadedKeys.get(readTextFile, path, () => readKey(path, source, readTextFile, provider));
}

async function readKey(
  path: string,
  source: string,
  readTextFile: ReadTextFile,
  provider: string,
): Promise<ServiceAccountKey> {
  const fail = (detail: string): never => {
    throw new LlmOptionsError(source, detail, { provider });
  };
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail(
      `names the key file ${JSON.stringify(path)}, which cannot be read (${reason}). Check the path (a relative path resolves against the current working directory) and that the file is readable.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(
      `names the key file ${JSON.stringify(path)}, which is not valid JSON; it should be a service-account key file as Google issues it.`,
    );
  }
  return readServiceAccountKey(parsed, source, provider, `the key file ${JSON.stringify(path)}`);
}
