//===- ExpectedHelpers.h - gtest helpers for llvm::Expected -----*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The installed LLVM ships llvm/Testing/Support headers without their
// library, so these tests use two small helpers of their own instead.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_UNITTESTS_SUPPORT_EXPECTEDHELPERS_H
#define BSGP_UNITTESTS_SUPPORT_EXPECTEDHELPERS_H

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <string>

namespace bsgp::test {

/// Success, or a failure that prints the error.
template <typename T>
::testing::AssertionResult succeeded(llvm::Expected<T> &value) {
  if (value)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << llvm::toString(value.takeError());
}

/// The error message, or "" on success.
inline std::string errorMessage(llvm::Error error) {
  if (!error)
    return "";
  return llvm::toString(std::move(error));
}

template <typename T> std::string errorMessage(llvm::Expected<T> &&value) {
  if (value)
    return "";
  return llvm::toString(value.takeError());
}

} // namespace bsgp::test

#endif // BSGP_UNITTESTS_SUPPORT_EXPECTEDHELPERS_H
