//===- bsgp-lsp.cpp - the BSGP language server ----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A Language Server Protocol server over stdin/stdout for .bsgp files:
// diagnostics on open and on every change, hover (types, host or
// thread-local, saved across barriers), go to definition, document
// symbols, references, highlights, rename, completion, signature help,
// semantic tokens (thread-local or host variables) and an inlay hint per
// spawn (its supersteps and temporary streams). The JSON-RPC
// transport and the protocol's types are LLVM's (llvm/Support/LSP, built into
// libLLVM), as in mlir-lsp-server; this file only wires the requests to
// BSGPDocument (Document.h).
//
// With -lit-test, messages are read separated by `// -----` lines and the
// replies are pretty-printed, so that lit tests can drive the server with
// a scripted exchange of messages and check its answers with FileCheck.
//
//===----------------------------------------------------------------------===//

#include "CompileCommands.h"
#include "Document.h"

#include "bsgp/Driver/Driver.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/Program.h"

#include <map>
#include <memory>

using namespace bsgp;
using namespace bsgp::lspserver;
namespace lsp = llvm::lsp;

namespace {

/// textDocument/rename's parameters (LLVM's protocol types have none).
struct RenameParams : lsp::TextDocumentPositionParams {
  std::string newName;
};

bool fromJSON(const llvm::json::Value &Value, RenameParams &Result,
              llvm::json::Path Path) {
  llvm::json::ObjectMapper O(Value, Path);
  return lsp::fromJSON(Value,
                       static_cast<lsp::TextDocumentPositionParams &>(Result),
                       Path) &&
         O && O.map("newName", Result.newName);
}

/// textDocument/semanticTokens/full's parameters.
struct SemanticTokensParams {
  lsp::TextDocumentIdentifier textDocument;
};

bool fromJSON(const llvm::json::Value &Value, SemanticTokensParams &Result,
              llvm::json::Path Path) {
  llvm::json::ObjectMapper O(Value, Path);
  return O && O.map("textDocument", Result.textDocument);
}

/// The server's state: the open documents, and the handlers of the
/// requests and notifications it answers.
class Server {
public:
  Server(lsp::JSONTransport &Transport, CompileSettings Settings)
      : Handler(Transport), Settings(std::move(Settings)) {
    Handler.method("initialize", this, &Server::onInitialize);
    Handler.notification("initialized", this, &Server::onInitialized);
    Handler.method("shutdown", this, &Server::onShutdown);
    Handler.notification("textDocument/didOpen", this, &Server::onOpen);
    Handler.notification("textDocument/didChange", this, &Server::onChange);
    Handler.notification("textDocument/didClose", this, &Server::onClose);
    Handler.method("textDocument/hover", this, &Server::onHover);
    Handler.method("textDocument/definition", this, &Server::onDefinition);
    Handler.method("textDocument/documentSymbol", this,
                   &Server::onDocumentSymbol);
    Handler.method("textDocument/references", this, &Server::onReferences);
    Handler.method("textDocument/documentHighlight", this,
                   &Server::onHighlight);
    Handler.method("textDocument/prepareRename", this,
                   &Server::onPrepareRename);
    Handler.method("textDocument/rename", this, &Server::onRename);
    Handler.method("textDocument/completion", this, &Server::onCompletion);
    Handler.method("textDocument/signatureHelp", this,
                   &Server::onSignatureHelp);
    Handler.method("textDocument/inlayHint", this, &Server::onInlayHint);
    Handler.method("textDocument/semanticTokens/full", this,
                   &Server::onSemanticTokens);
    PublishDiagnostics =
        Handler.outgoingNotification<lsp::PublishDiagnosticsParams>(
            "textDocument/publishDiagnostics");
  }

  lsp::MessageHandler Handler;
  bool ShutdownRequested = false;

private:
  struct OpenFile {
    std::string Text;
    int64_t Version = 0;
    std::unique_ptr<BSGPDocument> Doc;
  };

  void onInitialize(const lsp::InitializeParams &,
                    lsp::Callback<llvm::json::Value> Reply) {
    llvm::json::Object Capabilities{
        // Full text on every change (1: TextDocumentSyncKind.Full).
        {"textDocumentSync",
         llvm::json::Object{{"openClose", true}, {"change", 1}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"documentSymbolProvider", true},
        {"referencesProvider", true},
        {"documentHighlightProvider", true},
        {"renameProvider", llvm::json::Object{{"prepareProvider", true}}},
        {"completionProvider",
         llvm::json::Object{
             {"triggerCharacters", llvm::json::Array{".", ">"}}}},
        {"signatureHelpProvider",
         llvm::json::Object{
             {"triggerCharacters", llvm::json::Array{"(", ","}}}},
        {"inlayHintProvider", true},
        {"semanticTokensProvider",
         llvm::json::Object{{"legend", BSGPDocument::semanticTokensLegend()},
                            {"full", true}}},
    };
    Reply(llvm::json::Object{
        {"serverInfo",
         llvm::json::Object{{"name", "bsgp-lsp"}, {"version", "0.1.0"}}},
        {"capabilities", std::move(Capabilities)},
    });
  }
  void onInitialized(const lsp::InitializedParams &) {}
  void onShutdown(const lsp::NoParams &, lsp::Callback<std::nullptr_t> Reply) {
    ShutdownRequested = true;
    Reply(nullptr);
  }

  /// Compiles the text of `URI` again and publishes its diagnostics.
  void update(const lsp::URIForFile &URI, OpenFile &F) {
    lsp::PublishDiagnosticsParams Params(URI, F.Version);
    F.Doc = std::make_unique<BSGPDocument>(
        URI, F.Text, Commands.settingsFor(Settings, URI.file()),
        Params.diagnostics);
    PublishDiagnostics(Params);
  }

  void onOpen(const lsp::DidOpenTextDocumentParams &P) {
    OpenFile &F = Files[P.textDocument.uri.file().str()];
    F.Text = P.textDocument.text;
    F.Version = P.textDocument.version;
    update(P.textDocument.uri, F);
  }
  void onChange(const lsp::DidChangeTextDocumentParams &P) {
    auto It = Files.find(P.textDocument.uri.file().str());
    if (It == Files.end())
      return;
    OpenFile &F = It->second;
    if (llvm::failed(lsp::TextDocumentContentChangeEvent::applyTo(
            P.contentChanges, F.Text))) {
      lsp::Logger::error("could not apply the changes to {0}",
                         P.textDocument.uri.file());
      return;
    }
    F.Version = P.textDocument.version;
    update(P.textDocument.uri, F);
  }
  void onClose(const lsp::DidCloseTextDocumentParams &P) {
    if (!Files.erase(P.textDocument.uri.file().str()))
      return;
    // Clear the closed file's diagnostics.
    PublishDiagnostics(lsp::PublishDiagnosticsParams(P.textDocument.uri, 0));
  }

  BSGPDocument *lookup(const lsp::URIForFile &URI) {
    auto It = Files.find(URI.file().str());
    return It == Files.end() ? nullptr : It->second.Doc.get();
  }

  void onHover(const lsp::TextDocumentPositionParams &P,
               lsp::Callback<std::optional<lsp::Hover>> Reply) {
    BSGPDocument *Doc = lookup(P.textDocument.uri);
    Reply(Doc ? Doc->hover(P.position) : std::nullopt);
  }
  void onDefinition(const lsp::TextDocumentPositionParams &P,
                    lsp::Callback<std::vector<lsp::Location>> Reply) {
    std::vector<lsp::Location> Locations;
    if (BSGPDocument *Doc = lookup(P.textDocument.uri))
      Doc->definition(P.position, Locations);
    Reply(std::move(Locations));
  }
  void onDocumentSymbol(const lsp::DocumentSymbolParams &P,
                        lsp::Callback<std::vector<lsp::DocumentSymbol>> Reply) {
    std::vector<lsp::DocumentSymbol> Symbols;
    if (BSGPDocument *Doc = lookup(P.textDocument.uri))
      Doc->symbols(Symbols);
    Reply(std::move(Symbols));
  }

  void onReferences(const lsp::ReferenceParams &P,
                    lsp::Callback<std::vector<lsp::Location>> Reply) {
    std::vector<lsp::Location> Locations;
    if (BSGPDocument *Doc = lookup(P.textDocument.uri))
      Doc->references(P.position, P.context.includeDeclaration, Locations);
    Reply(std::move(Locations));
  }
  void onHighlight(const lsp::TextDocumentPositionParams &P,
                   lsp::Callback<llvm::json::Value> Reply) {
    llvm::json::Array Highlights;
    if (BSGPDocument *Doc = lookup(P.textDocument.uri))
      for (const lsp::Range &R : Doc->highlights(P.position))
        // 1: DocumentHighlightKind.Text.
        Highlights.push_back(llvm::json::Object{{"range", R}, {"kind", 1}});
    Reply(llvm::json::Value(std::move(Highlights)));
  }
  void onPrepareRename(const lsp::TextDocumentPositionParams &P,
                       lsp::Callback<std::optional<lsp::Range>> Reply) {
    BSGPDocument *Doc = lookup(P.textDocument.uri);
    Reply(Doc ? Doc->prepareRename(P.position) : std::nullopt);
  }
  void onRename(const RenameParams &P,
                lsp::Callback<lsp::WorkspaceEdit> Reply) {
    BSGPDocument *Doc = lookup(P.textDocument.uri);
    if (!Doc)
      return Reply(llvm::make_error<lsp::LSPError>(
          "the document is not open", lsp::ErrorCode::InvalidRequest));
    llvm::Expected<std::vector<lsp::TextEdit>> Edits =
        Doc->rename(P.position, P.newName);
    if (!Edits)
      return Reply(Edits.takeError());
    lsp::WorkspaceEdit Edit;
    Edit.changes[P.textDocument.uri.uri().str()] = std::move(*Edits);
    Reply(std::move(Edit));
  }
  void onCompletion(const lsp::CompletionParams &P,
                    lsp::Callback<lsp::CompletionList> Reply) {
    lsp::CompletionList List;
    if (BSGPDocument *Doc = lookup(P.textDocument.uri))
      Doc->completion(P.position, List);
    Reply(std::move(List));
  }
  void onSignatureHelp(const lsp::TextDocumentPositionParams &P,
                       lsp::Callback<std::optional<lsp::SignatureHelp>> Reply) {
    BSGPDocument *Doc = lookup(P.textDocument.uri);
    Reply(Doc ? Doc->signatureHelp(P.position) : std::nullopt);
  }
  void onInlayHint(const lsp::InlayHintsParams &P,
                   lsp::Callback<std::vector<lsp::InlayHint>> Reply) {
    std::vector<lsp::InlayHint> Hints;
    if (BSGPDocument *Doc = lookup(P.textDocument.uri))
      Doc->inlayHints(P.range, Hints);
    Reply(std::move(Hints));
  }

  void onSemanticTokens(const SemanticTokensParams &P,
                        lsp::Callback<llvm::json::Value> Reply) {
    llvm::json::Array Data;
    if (BSGPDocument *Doc = lookup(P.textDocument.uri))
      for (uint32_t N : Doc->semanticTokens())
        Data.push_back(int64_t(N));
    Reply(llvm::json::Object{{"data", std::move(Data)}});
  }

  CompileSettings Settings;
  CompileCommands Commands;
  std::map<std::string, OpenFile> Files;
  lsp::OutgoingNotification<lsp::PublishDiagnosticsParams> PublishDiagnostics;
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  llvm::cl::opt<bool> LitTest(
      "lit-test",
      llvm::cl::desc("Read messages separated by '// -----' lines, accept "
                     "test:// URIs and pretty-print the replies (for lit)"));
  llvm::cl::opt<bool> Verbose("verbose",
                              llvm::cl::desc("Log every message to stderr"));
  llvm::cl::opt<bool> NoCollectives(
      "fno-collectives",
      llvm::cl::desc("Do not import the collective library"));
  llvm::cl::list<std::string> IncludePaths(
      "I", llvm::cl::desc("Directory searched for imports and #include"),
      llvm::cl::Prefix);
  llvm::cl::ParseCommandLineOptions(argc, argv, "BSGP language server\n");

  CompileSettings Settings;
  if (!NoCollectives) {
    std::string Lib = findCollectiveLibrary(argv[0]);
    if (!Lib.empty())
      Settings.ImplicitImports.push_back(Lib);
  }
  Settings.IncludePaths.assign(IncludePaths.begin(), IncludePaths.end());
  Settings.PP.IncludePaths = Settings.IncludePaths;
  std::string Dir = findResourceIncludeDir(
      argv[0], reinterpret_cast<void *>(&findCollectiveLibrary));
  if (!Dir.empty())
    Settings.PP.SystemIncludePaths.push_back(Dir);

  // Documents are compiled under a CrashRecoveryContext (Document.cpp).
  llvm::CrashRecoveryContext::Enable();
  lsp::Logger::setLogLevel(Verbose ? lsp::Logger::Level::Debug
                                   : lsp::Logger::Level::Error);
  if (LitTest)
    lsp::URIForFile::registerSupportedScheme("test");
  llvm::sys::ChangeStdinToBinary();
  lsp::JSONTransport Transport(stdin, llvm::outs(),
                               LitTest ? lsp::JSONStreamStyle::Delimited
                                       : lsp::JSONStreamStyle::Standard,
                               /*PrettyOutput=*/LitTest);
  Server S(Transport, std::move(Settings));
  llvm::Error Err = Transport.run(S.Handler);
  if (Err) {
    lsp::Logger::error("transport error: {0}", llvm::toString(std::move(Err)));
    return 1;
  }
  // The protocol: exit code 0 only if shutdown came before exit.
  return S.ShutdownRequested ? 0 : 1;
}
