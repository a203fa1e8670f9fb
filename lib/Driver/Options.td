//===- Options.td - bsgpc command-line options -------------*- tablegen -*-===//
//
// Part of bsgpc, the BSGP compiler. Parsed with LLVM's Option library, like
// clang's driver options.
//
//===----------------------------------------------------------------------===//

include "llvm/Option/OptParser.td"

def help : Flag<["-", "--"], "help">, HelpText<"Display available options">;
def version : Flag<["-", "--"], "version">,
  HelpText<"Print the compiler version">;
def fsyntax_only : Flag<["-"], "fsyntax-only">,
  HelpText<"Parse and check the program, produce no output">;
def ast_dump : Flag<["-"], "ast-dump">,
  HelpText<"Print the checked AST">;
def ast_dump_parse : Flag<["-"], "ast-dump-parse">,
  HelpText<"Print the AST right after parsing, without semantic analysis">;
def o : JoinedOrSeparate<["-"], "o">, MetaVarName<"<file>">,
  HelpText<"Write output to <file>">;
def I : JoinedOrSeparate<["-"], "I">, MetaVarName<"<dir>">,
  HelpText<"Add <dir> to the import search path">;
def Werror : Flag<["-"], "Werror">, HelpText<"Turn warnings into errors">;
def w : Flag<["-"], "w">, HelpText<"Suppress all warnings">;
def fcolor_diagnostics : Flag<["-"], "fcolor-diagnostics">,
  HelpText<"Use colours in diagnostics">;
def fno_color_diagnostics : Flag<["-"], "fno-color-diagnostics">,
  HelpText<"Do not use colours in diagnostics">;
def ferror_limit_EQ : Joined<["-"], "ferror-limit=">, MetaVarName<"<n>">,
  HelpText<"Stop after <n> errors (0: no limit)">;
