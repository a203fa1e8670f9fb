//===- Options.td - bsgpc command-line options -------------*- tablegen -*-===//
//
// Part of bsgpc, the BSGP compiler. Parsed with LLVM's Option library, like
// clang's driver options.
//
//===----------------------------------------------------------------------===//

include "llvm/Option/OptParser.td"

def help : Flag<["-", "--"], "help">, HelpText<"Display available options">;
def version : Flag<["-", "--"], "version">,
  HelpText<"Print the compiler version, the LLVM and MLIR it was built with, its targets and the runtime ABI">;
def fsyntax_only : Flag<["-"], "fsyntax-only">,
  HelpText<"Parse and check the program, produce no output">;
def fno_collectives : Flag<["-"], "fno-collectives">,
  HelpText<"Do not import the collective library (reduce, scan, sortby, ...)">;
def fcollective_library : Flag<["-"], "fcollective-library">,
  HelpText<"Compile the input as the collective library itself (its internal builtins allowed), as `bsgpc -fsyntax-only -fcollective-library collectives.bsgp` checks it">;
def ast_dump : Flag<["-"], "ast-dump">,
  HelpText<"Print the checked AST">;
def ast_dump_parse : Flag<["-"], "ast-dump-parse">,
  HelpText<"Print the AST right after parsing, without semantic analysis">;
def o : JoinedOrSeparate<["-"], "o">, MetaVarName<"<file>">,
  HelpText<"Write output to <file>">;
def I : JoinedOrSeparate<["-"], "I">, MetaVarName<"<dir>">,
  HelpText<"Add <dir> to the #include and import search path">;
def D : JoinedOrSeparate<["-"], "D">, MetaVarName<"<macro>=<value>">,
  HelpText<"Define <macro> to <value> (or 1 if <value> omitted)">;
def U : JoinedOrSeparate<["-"], "U">, MetaVarName<"<macro>">,
  HelpText<"Undefine macro <macro>">;
def E : Flag<["-"], "E">,
  HelpText<"Only run the preprocessor: print the preprocessed source (with line markers) to the output">;
def Werror : Flag<["-"], "Werror">, HelpText<"Turn warnings into errors">;
def w : Flag<["-"], "w">, HelpText<"Suppress all warnings">;
def verify : Flag<["-"], "verify">,
  HelpText<"Check the diagnostics against the expected-error/warning/note comments of the source instead of printing them (implies -fsyntax-only unless an output is asked for)">;
def fcolor_diagnostics : Flag<["-"], "fcolor-diagnostics">,
  HelpText<"Use colours in diagnostics">;
def fno_color_diagnostics : Flag<["-"], "fno-color-diagnostics">,
  HelpText<"Do not use colours in diagnostics">;
def ferror_limit_EQ : Joined<["-"], "ferror-limit=">, MetaVarName<"<n>">,
  HelpText<"Stop after <n> errors (0: no limit)">;
def ftemplate_backtrace_limit_EQ : Joined<["-"], "ftemplate-backtrace-limit=">,
  MetaVarName<"<n>">,
  HelpText<"Show at most <n> 'in instantiation of' notes after a diagnostic in a generic function: the first and last halves of a longer chain (default 10, 0: no limit)">;

// Code generation.
def emit_mlir : Flag<["-"], "emit-mlir">,
  HelpText<"Write the MLIR module made from the program (bsgp dialect, SSA)">;
def emit_llvm : Flag<["-"], "emit-llvm">,
  HelpText<"With -S write LLVM IR, with -c LLVM bitcode">;
def lower_mlir : Flag<["-"], "lower-mlir">,
  HelpText<"With -emit-mlir, write the module after the whole MLIR pipeline">;
def emit_spirv : Flag<["-"], "emit-spirv">,
  HelpText<"Write the kernels' SPIR-V binary (implies --target=spirv)">;
def c : Flag<["-"], "c">, HelpText<"Compile to an object file">;
// cc1's spelling, which build rules written for clang -cc1 use.
def emit_obj : Flag<["-"], "emit-obj">, Alias<c>,
  HelpText<"Compile to an object file (the same as -c)">;
def S : Flag<["-"], "S">, HelpText<"Compile to host assembly">;
def O : Joined<["-"], "O">, MetaVarName<"<level>">,
  HelpText<"Optimization level 0-3 (default 2)">;
def target_EQ : Joined<["--"], "target=">, MetaVarName<"<targets>">,
  HelpText<"Where kernels run: cpu (default), cuda, spirv (Vulkan), or a list such as cpu,cuda,spirv for one object carrying several">;
def cuda_arch_EQ : Joined<["--"], "cuda-arch=">, MetaVarName<"<sm_XX>">,
  HelpText<"GPU architecture of the CUDA target (default sm_90)">;
def cuda_groups_per_block_EQ : Joined<["--"], "cuda-groups-per-block=">,
  MetaVarName<"<n>">,
  HelpText<"Work groups of 256 threads one CUDA thread block runs in supersteps with work-group operations: 1, 2, 4, 8 (default) or 16">;
def cuda_path_EQ : Joined<["--"], "cuda-path=">, MetaVarName<"<dir>">,
  HelpText<"CUDA toolkit whose libdevice device math links with">;
def march_EQ : Joined<["-"], "march=">, MetaVarName<"<cpu>">,
  HelpText<"Host CPU to generate code for (native: this machine)">;
def mlir_print_ir_after_all : Flag<["-"], "mlir-print-ir-after-all">,
  HelpText<"With -emit-mlir, print the module after every pass">;
def print_supersteps : Flag<["--"], "print-supersteps">,
  HelpText<"Print each spawn's supersteps and saved values (paper Tables 1-2) to standard output, or to the file -o names, instead of building anything">;
def print_supersteps_EQ : Joined<["--"], "print-supersteps=">,
  MetaVarName<"<format>">,
  HelpText<"As --print-supersteps, in <format>: table (default: the program's spawns), all (the table with the collective library's spawns too) or dot (the Fig. 4 graph as Graphviz)">;

// Linking (passed to Clang's driver).
def L : JoinedOrSeparate<["-"], "L">, MetaVarName<"<dir>">,
  HelpText<"Add <dir> to the library search path when linking">;
def l : JoinedOrSeparate<["-"], "l">, MetaVarName<"<lib>">,
  HelpText<"Link with library <lib>">;
def Wl_COMMA : CommaJoined<["-"], "Wl,">, MetaVarName<"<arg>">,
  HelpText<"Pass the comma separated arguments to the linker">;
def pthread : Flag<["-"], "pthread">, HelpText<"Link with POSIX threads">;
def shared : Flag<["-"], "shared">,
  HelpText<"Link a shared library (with -fPIC C/C++ inputs) instead of a program">;
def static_bsgprt : Flag<["-"], "static-bsgprt">,
  HelpText<"Link the runtime statically (libbsgprt.a, with OpenMP)">;
def v : Flag<["-"], "v">, HelpText<"Show the commands run to compile and link">;

// C and C++ inputs (compiled by Clang, as `bsgpc -c main.cpp` in a Makefile
// that uses bsgpc for every file). A .bsgp input ignores -W<warning> (its
// own warnings are always on) and warns that the others are unused.
def std_EQ : Joined<["-"], "std=">, MetaVarName<"<standard>">,
  HelpText<"Language standard of C and C++ inputs (passed to Clang; ignored with a warning for .bsgp inputs: BSGP has one version)">;
def x : JoinedOrSeparate<["-"], "x">, MetaVarName<"<language>">,
  HelpText<"Treat the inputs that follow as <language>: bsgp, c, c++ (or another language Clang compiles), or none to go by their extensions again">;
def W_Joined : Joined<["-"], "W">, MetaVarName<"<warning>">,
  HelpText<"Enable the named warning in C and C++ inputs (passed to Clang)">;
def f_Joined : Joined<["-"], "f">, MetaVarName<"<flag>">,
  HelpText<"Code generation or language flag for C and C++ inputs (passed to Clang; -fPIC and -fpic are always on for .bsgp inputs)">;

// Build-system side outputs.
def MD : Flag<["-"], "MD">,
  HelpText<"Write a make dependency file (<output>.d, or -MF) while compiling">;
def MMD : Flag<["-"], "MMD">,
  HelpText<"Like -MD, leaving out bsgpc's own headers (bsgp.h) and the collective library, as clang leaves out system headers">;
def MF : JoinedOrSeparate<["-"], "MF">, MetaVarName<"<file>">,
  HelpText<"Write the dependency file to <file>">;
def MP : Flag<["-"], "MP">,
  HelpText<"Add a phony target for each dependency other than the main file">;
def MT : JoinedOrSeparate<["-"], "MT">, MetaVarName<"<target>">,
  HelpText<"Name the target of the dependency rule <target> (may be repeated)">;
def MQ : JoinedOrSeparate<["-"], "MQ">, MetaVarName<"<target>">,
  HelpText<"Like -MT, quoting the characters make treats specially">;
def emit_header : Separate<["-"], "emit-header">, MetaVarName<"<file.h>">,
  HelpText<"Also write a C/C++ header declaring the file's host-callable functions">;
def ftime_report : Flag<["-"], "ftime-report">,
  HelpText<"Print the time each compilation step took to standard error: MLIRGen, every MLIR pass (PTX and SPIR-V included), LLVM's host code generation">;
def g : Flag<["-"], "g">,
  HelpText<"Generate line information: DWARF line tables for host code and CPU kernels, .loc directives in CUDA kernels' PTX">;
// nvcc's spelling, for Makefiles ported from CUDA.
def lineinfo : Flag<["-"], "lineinfo">, Alias<g>,
  HelpText<"The same as -g (nvcc's name): line information in PTX, host code and CPU kernels">;
