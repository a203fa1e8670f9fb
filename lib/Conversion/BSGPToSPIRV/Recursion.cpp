//===- Recursion.cpp - reject recursive device code for SPIR-V ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Recursion.h"

#include "llvm/ADT/DenseMap.h"

#include <functional>

using namespace mlir;

LogicalResult bsgp::rejectSPIRVRecursion(ArrayRef<func::FuncOp> functions) {
  llvm::DenseMap<StringRef, func::FuncOp> byName;
  for (func::FuncOp fn : functions)
    byName[fn.getSymName()] = fn;
  // Depth-first search; a call to a function still on the stack closes a
  // cycle. Every such call is reported.
  enum class Mark { OnStack, Done };
  llvm::DenseMap<Operation *, Mark> marks;
  bool found = false;
  std::function<void(func::FuncOp)> visit = [&](func::FuncOp fn) {
    marks[fn] = Mark::OnStack;
    fn.walk([&](func::CallOp call) {
      func::FuncOp callee = byName.lookup(call.getCallee());
      if (!callee)
        return;
      auto it = marks.find(callee);
      if (it == marks.end()) {
        visit(callee);
      } else if (it->second == Mark::OnStack) {
        found = true;
        call.emitError() << "'" << callee.getSymName()
                         << "' is recursive, which the spirv target cannot "
                            "compile (Vulkan forbids recursion); write it as "
                            "a loop, or compile for cpu or cuda";
      }
    });
    marks[fn] = Mark::Done;
  };
  for (func::FuncOp fn : functions)
    if (!marks.count(fn))
      visit(fn);
  return failure(found);
}
