// The BSGP extension: starts bsgp-lsp (setting bsgp.server.path) for .bsgp
// files and talks to it over stdio through vscode-languageclient.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('bsgp');
  const command = config.get('server.path') || 'bsgp-lsp';
  const args = config.get('server.arguments') || [];
  const serverOptions = {
    run: { command, args, transport: TransportKind.stdio },
    debug: { command, args: args.concat(['-verbose']),
             transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'bsgp' }],
  };
  client = new LanguageClient('bsgp', 'BSGP language server', serverOptions,
                              clientOptions);
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
        `bsgp-lsp could not start (${command}): ${err.message}. ` +
        'Set bsgp.server.path to the bsgp-lsp executable.');
  });
  // The server's command line is read once: offer a reload when it changes.
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('bsgp.server'))
      return;
    vscode.window
        .showInformationMessage(
            'Reload the window to restart bsgp-lsp with the new settings.',
            'Reload')
        .then((choice) => {
          if (choice === 'Reload')
            vscode.commands.executeCommand('workbench.action.reloadWindow');
        });
  }));
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
