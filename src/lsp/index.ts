/**
 * The `lsp` room: the Language Server Protocol server behind `sapling lsp --stdio`. The only room that
 * loads `vscode-languageserver`; the CLI imports it lazily, so no other command pays for it.
 */
export type { LanguageServerHost, RenderTestPromptRequest } from "./language-server-host.js";
export {
  type LanguageServer,
  type LanguageServerOptions,
  projectWorkRequest,
  startLanguageServer,
} from "./start-language-server.js";
