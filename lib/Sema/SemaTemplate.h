//===- SemaTemplate.h - Sema's state for generic functions ------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What Sema keeps about generic functions (SemaTemplate.cpp): the
/// templates by their pattern, the instantiations made so far (one per
/// template and argument list), and those whose body is still to check.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_SEMA_SEMATEMPLATE_H
#define BSGP_LIB_SEMA_SEMATEMPLATE_H

#include "bsgp/AST/AST.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/ADT/StringMap.h"
#include <cctype>
#include <map>
#include <string>
#include <vector>

namespace bsgp {

struct TemplateState {
  /// Instantiations nested deeper than this (f<T> requesting f<T*> ...)
  /// are an error, as clang's -ftemplate-depth.
  static constexpr unsigned MaxDepth = 32;

  /// The pattern of every template (what its name resolves to in Sema's
  /// function table) -> the template.
  llvm::DenseMap<FunctionDecl *, FunctionTemplateDecl *> Patterns;
  /// (template, arguments) -> instantiation; null when it failed.
  std::map<std::pair<FunctionTemplateDecl *, std::vector<const Type *>>,
           FunctionDecl *>
      Cache;
  struct Instance {
    FunctionDecl *F;
    /// `f<int>`, for the notes.
    std::string Display;
    /// The call that requested it.
    SourceRange At;
    /// The instantiation whose body requested it; -1 for other functions.
    int Parent;
  };
  /// Every instantiation, in the order they were requested.
  std::vector<Instance> Instances;
  /// The instantiation whose body is being checked, or -1.
  int Current = -1;
  /// Instances[0, Checked) have been checked.
  size_t Checked = 0;

  /// The collective library's functions not checked yet (they are checked
  /// when the program reaches them), and the library functions MLIRGen
  /// calls for the primitives checked so far.
  std::vector<FunctionDecl *> Deferred;
  std::vector<std::string> LibraryNames;
  /// The explicit specializations (`template <> R f<int>(...)`), which
  /// stand in Cache for their instantiations.
  llvm::DenseSet<FunctionDecl *> Specializations;
  /// The collective library's templates declared `[[library(kind)]]`, by
  /// kind in the order of declaration: the primitives Sema binds to one
  /// (reduce, scan, ...) choose among them here; and its functions so
  /// declared that are not generic (thread.kill's, the one-pass scans).
  llvm::StringMap<llvm::SmallVector<FunctionTemplateDecl *, 1>> ByLibraryKind;
  llvm::StringMap<llvm::SmallVector<FunctionDecl *, 1>> FunctionByLibraryKind;
};

} // namespace bsgp

#endif // BSGP_LIB_SEMA_SEMATEMPLATE_H
