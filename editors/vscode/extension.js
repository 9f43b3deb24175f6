// The chartc extension's client: starts `chartc lsp` (the command is the `chartc.command`
// setting) on stdio for every .chart and aid.order file.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("chartc").get("command", ["chartc", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "chartc",
    "chartc",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "chart" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
