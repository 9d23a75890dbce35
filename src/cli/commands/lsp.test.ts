import { describe, expect, it } from "vitest";
import { CliError, captureContext, UsageError } from "../cli-context.js";
import { main } from "../main.js";
import { LANGUAGE_SERVER_MISSING, lspCommandWith } from "./lsp.js";

/** What Node throws when an import names a package that is not installed. */
function missing(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/lsp/index.js`), {
    code: "ERR_MODULE_NOT_FOUND",
  });
}

describe("sapling lsp", () => {
  it("needs --stdio and rejects other options", async () => {
    const context = captureContext();
    expect(await main(["lsp"], context)).toBe(2);
    expect(context.output().stderr).toMatch(/pass --stdio/);
    await expect(
      lspCommandWith(async () => ({ runLanguageServer: async () => 0 })).run(["--stdio", "--tcp"], context),
    ).rejects.toThrow(UsageError);
  });

  it("says how to install the optional server packages when they are absent", async () => {
    for (const name of ["vscode-languageserver", "vscode-languageserver-textdocument"]) {
      const command = lspCommandWith(async () => {
        throw missing(name);
      });
      const run = command.run(["--stdio"], captureContext());
      await expect(run).rejects.toThrow(CliError);
      await expect(run).rejects.toThrow(LANGUAGE_SERVER_MISSING);
    }
    expect(LANGUAGE_SERVER_MISSING).toBe(
      "sapling lsp needs the optional packages vscode-languageserver and vscode-languageserver-textdocument: npm install --save-dev vscode-languageserver@10 vscode-languageserver-textdocument@1",
    );
  });

  it("does not mistake a broken install (a dependency of the server library missing) for an absent one", async () => {
    const command = lspCommandWith(async () => {
      throw missing("vscode-jsonrpc");
    });
    await expect(command.run(["--stdio"], captureContext())).rejects.toThrow(/vscode-jsonrpc/);
    await expect(command.run(["--stdio"], captureContext())).rejects.not.toThrow(CliError);
  });

  it("accepts the --clientProcessId that vscode-languageclient adds, and runs the loaded server", async () => {
    let ran = 0;
    const command = lspCommandWith(async () => ({ runLanguageServer: async () => ++ran }));
    expect(await command.run(["--stdio", "--clientProcessId=42"], captureContext())).toBe(1);
  });
});
