/** A test case's prompt to render: the project's current sources (open editors included), test and function. */
export interface RenderTestPromptRequest {
  /** Absolute path of the baml_src folder. */
  dir: string;
  sources: Record<string, string>;
  testName: string;
  functionName: string;
}

/**
 * What the language server needs from the machine it runs on: the CLI provides the real one (file system,
 * environment, the prompt renderer of `sapling render`), so this room touches neither disk nor process.
 */
export interface LanguageServerHost {
  /** Sapling's version, reported in `serverInfo`. */
  version: string;
  /** The `.baml` files under a folder, as paths relative to it with `/`; none when it does not exist. */
  listBamlFiles: (dir: string) => Promise<string[]>;
  /** A file's text, or `undefined` when it cannot be read (deleted since). */
  readFile: (path: string) => Promise<string | undefined>;
  /** A test case's rendered prompt as text; throws an `Error` whose message says what is wrong. */
  renderTestPrompt: (request: RenderTestPromptRequest) => Promise<string>;
}
