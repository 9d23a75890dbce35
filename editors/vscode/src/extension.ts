/**
 * The Sapling extension: BAML syntax colouring (the TextMate grammar) and a language client per
 * workspace folder that runs the `sapling lsp --stdio` the folder's project installed, after checking
 * that its version is one this extension supports. The "Render prompt" lens opens the rendered prompt
 * beside the editor.
 */
import * as vscode from "vscode";
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { findSapling } from "./find-sapling.js";
import { isSupportedSaplingVersion, supportedSaplingRange } from "./supported-version.js";

const clients = new Map<string, LanguageClient>();
let output: vscode.LogOutputChannel;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("Sapling", { log: true });
  context.subscriptions.push(output);
  for (const folder of vscode.workspace.workspaceFolders ?? []) await start(folder);
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(async (event) => {
      for (const folder of event.removed) await stop(folder);
      for (const folder of event.added) await start(folder);
    }),
    vscode.commands.registerCommand("sapling.restartServer", async () => {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        await stop(folder);
        await start(folder);
      }
    }),
  );
}

export async function deactivate(): Promise<void> {
  await Promise.all([...clients.values()].map((client) => client.stop()));
  clients.clear();
}

async function start(folder: vscode.WorkspaceFolder): Promise<void> {
  if (folder.uri.scheme !== "file" || clients.has(folder.uri.toString())) return;
  const configured = vscode.workspace.getConfiguration("sapling", folder).get<string>("path");
  const sapling = configured
    ? { bin: configured, version: "configured", missingServerPackages: [] }
    : findSapling(folder.uri.fsPath);
  if (!sapling) {
    output.appendLine(`${folder.name}: no sapling-llm in node_modules; BAML files get colouring only.`);
    return;
  }
  if (sapling.version !== "configured" && !isSupportedSaplingVersion(sapling.version)) {
    void vscode.window.showWarningMessage(
      `${folder.name} uses Sapling ${sapling.version}; this extension supports ${supportedSaplingRange.from} up to (not including) ${supportedSaplingRange.below}. Update the extension or the project's sapling-llm.`,
    );
    return;
  }
  if (sapling.missingServerPackages.length > 0) {
    void vscode.window.showWarningMessage(
      `${folder.name}: sapling lsp needs the optional packages ${sapling.missingServerPackages.join(" and ")}. Install them with: npm install --save-dev ${sapling.missingServerPackages.join(" ")}, then run "Sapling: Restart the language server".`,
    );
    return;
  }
  // Forked with the editor's own Node; the client adds --stdio (and --clientProcessId) to the arguments.
  const run = {
    module: sapling.bin,
    args: ["lsp"],
    transport: TransportKind.stdio,
    options: { cwd: folder.uri.fsPath },
  };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "baml", pattern: `${folder.uri.fsPath}/**/*` }],
    workspaceFolder: folder,
    outputChannel: output,
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, "**/*.baml")),
    },
    middleware: {
      // The server's "Render prompt" command returns the prompt as text; show it beside the editor.
      executeCommand: async (command, args, next) => {
        const result: unknown = await next(command, args);
        if (command === "sapling.renderTestPrompt" && typeof result === "string") {
          const document = await vscode.workspace.openTextDocument({
            content: result,
            language: "plaintext",
          });
          await vscode.window.showTextDocument(document, {
            viewColumn: vscode.ViewColumn.Beside,
            preview: true,
          });
        }
        return result;
      },
    },
  };
  const client = new LanguageClient("sapling", `Sapling (${folder.name})`, serverOptions, clientOptions);
  clients.set(folder.uri.toString(), client);
  output.appendLine(`${folder.name}: starting ${sapling.bin} lsp --stdio (Sapling ${sapling.version})`);
  await client.start();
}

async function stop(folder: vscode.WorkspaceFolder): Promise<void> {
  const client = clients.get(folder.uri.toString());
  clients.delete(folder.uri.toString());
  await client?.stop();
}
