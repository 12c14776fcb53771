// The VS Code client of `cardrules lsp`: starts the language server for .cards files and
// restarts it on request. Everything the editor shows (errors, hover, completion, ...) comes
// from the server; highlighting comes from syntaxes/cards.tmLanguage.json.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function makeClient() {
  const config = vscode.workspace.getConfiguration("cardrules");
  const serverOptions = {
    command: config.get("server.command", "cardrules"),
    args: config.get("server.args", ["lsp"]),
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "cards" },
      { scheme: "untitled", language: "cards" },
    ],
    synchronize: {
      // a base file changed on disk: the variants open in the editor are checked again
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.cards"),
    },
  };
  return new LanguageClient("cardrules", "Card rules", serverOptions, clientOptions);
}

async function activate(context) {
  client = makeClient();
  context.subscriptions.push(
    vscode.commands.registerCommand("cardrules.restartServer", async () => {
      if (client) {
        await client.stop();
      }
      client = makeClient();
      await client.start();
    })
  );
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
