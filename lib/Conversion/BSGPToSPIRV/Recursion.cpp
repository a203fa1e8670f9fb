//===- Recursion.cpp - reject recursive device code for SPIR-V ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Recursion.h"

#include "bsgp/Transforms/Inlining.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/InliningUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

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

LogicalResult bsgp::inlineMultiResultCalls(ModuleOp device) {
  // Device functions hold only ops the kernels hold too.
  bsgp::RequiredInliner interface(device.getContext());
  auto cloneCallback = [](OpBuilder &, Region *src, Block *inlineBlock,
                          Block *postInsertBlock, IRMapping &mapper, bool) {
    src->cloneInto(inlineBlock->getParent(), postInsertBlock->getIterator(),
                   mapper);
  };
  llvm::SetVector<func::FuncOp> inlined;
  for (;;) {
    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    device.walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && !callee.isExternal() && callee.getNumResults() > 1)
        calls.emplace_back(call, callee);
    });
    if (calls.empty())
      break;
    for (auto [call, callee] : calls) {
      if (!callee.getBody().hasOneBlock() ||
          failed(inlineCall(interface, cloneCallback, call, callee,
                            &callee.getBody())))
        return call.emitError("cannot inline function '")
               << callee.getSymName()
               << "', which returns a struct, for the spirv target";
      call.erase();
      inlined.insert(callee);
    }
  }
  for (func::FuncOp fn : inlined)
    if (SymbolTable::symbolKnownUseEmpty(fn, device))
      fn.erase();
  return success();
}
