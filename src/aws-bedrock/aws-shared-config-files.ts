/**
 * AWS shared config and credentials files (`~/.aws/credentials`, `~/.aws/config`), read as the AWS SDKs
 * read them for static keys: INI sections `[name]` in the credentials file and `[profile name]` (or
 * `[default]`) in the config file, `key = value` lines, `#` / `;` comments; a profile's keys merge with the
 * credentials file winning. Files come through the `readTextFile` the host injects (the `llm` room is
 * browser-safe and imports no file system); the home directory comes from the environment the adapter is
 * given (`HOME`, else `USERPROFILE`), the paths from `AWS_SHARED_CREDENTIALS_FILE` / `AWS_CONFIG_FILE`.
 *
 * A file is read and parsed once per reader and path, then reused for the life of the process (as
 * vertex-ai key files are); a read that fails is not cached, so fixing the file fixes the next call.
 */
import type { ReadTextFile } from "../llm/index.js";
import { LlmOptionsError, ReadCache } from "../provider-helpers/index.js";

/** Where the two files are, and what named each path (for messages). */
export interface AwsSharedFilePaths {
  credentials: string;
  config: string;
}

/** A profile's merged keys (values may be secrets: never put them in a message). */
export interface AwsSharedProfile {
  name: string;
  values: Readonly<Record<string, string>>;
  /** The paths whose files have the profile. */
  foundIn: readonly string[];
}

type Sections = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** Parsed files by kind and path, per reader (see `ReadCache`); `undefined` when the file does not exist. */
const loadedFiles = new ReadCache<Sections | undefined>();

/**
 * The file paths: `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE`, else `.aws/credentials` and
 * `.aws/config` under the home directory (a leading `~/` expands to it, as the SDKs do).
 */
export function awsSharedFilePaths(env: (name: string) => string | undefined): AwsSharedFilePaths {
  const home = (env("HOME") ?? env("USERPROFILE"))?.replace(/(.)[/\\]+$/, "$1");
  const place = (override: string | undefined, file: string): string => {
    if (override !== undefined) {
      return home !== undefined && /^~[/\\]/.test(override) ? `${home}${override.slice(1)}` : override;
    }
    return `${home ?? "~"}/.aws/${file}`;
  };
  return {
    credentials: place(env("AWS_SHARED_CREDENTIALS_FILE"), "credentials"),
    config: place(env("AWS_CONFIG_FILE"), "config"),
  };
}

/**
 * The profile `name` from both files, or `undefined` when neither has it (a missing file has no
 * profiles). Throws `LlmOptionsError` (on `option`) naming the path when a file exists but cannot be read.
 */
export async function loadAwsSharedProfile(
  name: string,
  paths: AwsSharedFilePaths,
  readTextFile: ReadTextFile,
  option: string,
  provider: string,
): Promise<AwsSharedProfile | undefined> {
  const [credentials, config] = await Promise.all([
    loadFile(paths.credentials, "credentials", readTextFile, option, provider),
    loadFile(paths.config, "config", readTextFile, option, provider),
  ]);
  const fromConfig = config?.get(name);
  const fromCredentials = credentials?.get(name);
  if (fromConfig === undefined && fromCredentials === undefined) return undefined;
  return {
    name,
    values: { ...fromConfig, ...fromCredentials },
    foundIn: [
      ...(fromCredentials === undefined ? [] : [paths.credentials]),
      ...(fromConfig === undefined ? [] : [paths.config]),
    ],
  };
}

function loadFile(
  path: string,
  kind: "credentials" | "config",
  readTextFile: ReadTextFile,
  option: string,
  provider: string,
): Promise<Sections | undefined> {
  return loadedFiles.get(readTextFile, `${kind}\u0000${path}`, () =>
    readFile(path, kind, readTextFile, option, provider),
  );
}

async function readFile(
  path: string,
  kind: "credentials" | "config",
  readTextFile: ReadTextFile,
  option: string,
  provider: string,
): Promise<Sections | undefined> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === "ENOENT") return undefined;
    const reason = error instanceof Error ? error.message : String(error);
    throw new LlmOptionsError(
      option,
      `the AWS ${kind} file ${JSON.stringify(path)} cannot be read (${reason}). Check that it is readable, or point ${kind === "credentials" ? "AWS_SHARED_CREDENTIALS_FILE" : "AWS_CONFIG_FILE"} at another file.`,
      { provider },
    );
  }
  return parseAwsIni(text, kind);
}

/**
 * Profiles by name from the text of a credentials file (`[name]`) or a config file (`[profile name]`,
 * `[default]`; other sections such as `[sso-session x]` are skipped). Indented lines under a key with no
 * value (`s3 =` sub-settings) are skipped; a comment starts a line or follows whitespace.
 */
export function parseAwsIni(text: string, kind: "credentials" | "config"): Sections {
  const sections = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  let nested = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/(^|\s)[#;].*$/, "").trim();
    if (line === "") continue;
    if (nested && /^\s/.test(rawLine)) continue;
    nested = false;
    const header = /^\[\s*([^\]]*?)\s*\]$/.exec(line);
    if (header !== null) {
      const name = sectionProfileName(header[1] ?? "", kind);
      current = undefined;
      if (name !== undefined) {
        current = sections.get(name) ?? {};
        sections.set(name, current);
      }
      continue;
    }
    const equals = line.indexOf("=");
    if (equals < 1 || current === undefined) continue;
    const key = line.slice(0, equals).trim().toLowerCase();
    const value = line.slice(equals + 1).trim();
    if (value === "") nested = true;
    else current[key] = value;
  }
  return sections;
}

function sectionProfileName(section: string, kind: "credentials" | "config"): string | undefined {
  if (kind === "credentials") return section;
  if (section === "default") return section;
  const profile = /^profile\s+(.+)$/.exec(section);
  return profile?.[1]?.trim();
}
