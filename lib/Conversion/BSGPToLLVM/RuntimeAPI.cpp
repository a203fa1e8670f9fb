//===- RuntimeAPI.cpp - calls from generated code into libbsgprt ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/BSGPToLLVM/RuntimeAPI.h"
#include "bsgp/Target/SymbolNames.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;

LLVM::LLVMFuncOp bsgp::getOrInsertRuntimeFn(ModuleOp module, RuntimeFn fn) {
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  Type voidTy = LLVM::LLVMVoidType::get(ctx);
  StringRef name;
  LLVM::LLVMFunctionType type;
  switch (fn) {
  case RuntimeFn::Launch:
    name = "bsgprt_launch";
    type = LLVM::LLVMFunctionType::get(voidTy, {ptr, i32, i64, ptr});
    break;
  case RuntimeFn::DNew:
    name = "bsgprt_dnew";
    type = LLVM::LLVMFunctionType::get(ptr, {i64, ptr});
    break;
  case RuntimeFn::DFree:
    name = "bsgprt_dfree_at";
    type = LLVM::LLVMFunctionType::get(voidTy, {ptr, ptr});
    break;
  case RuntimeFn::TempAlloc:
    name = "bsgprt_temp_alloc";
    type = LLVM::LLVMFunctionType::get(ptr, {i64, ptr});
    break;
  case RuntimeFn::TempFree:
    name = "bsgprt_temp_free";
    type = LLVM::LLVMFunctionType::get(voidTy, {ptr});
    break;
  case RuntimeFn::RegisterModule:
    name = "bsgprt_register_module";
    type = LLVM::LLVMFunctionType::get(voidTy, {ptr});
    break;
  case RuntimeFn::DNewElements:
    name = "bsgprt_dnew_elements";
    type = LLVM::LLVMFunctionType::get(ptr, {i64, i64, ptr});
    break;
  case RuntimeFn::TempAllocElements:
    name = "bsgprt_temp_alloc_elements";
    type = LLVM::LLVMFunctionType::get(ptr, {i64, i64, ptr});
    break;
  case RuntimeFn::CallSitePush:
    name = "bsgprt_callsite_push";
    type = LLVM::LLVMFunctionType::get(voidTy, {ptr});
    break;
  case RuntimeFn::CallSitePop:
    name = "bsgprt_callsite_pop";
    type = LLVM::LLVMFunctionType::get(voidTy, {});
    break;
  case RuntimeFn::LaunchCooperative:
    name = "bsgprt_launch_cooperative";
    type = LLVM::LLVMFunctionType::get(voidTy, {ptr, i32, i64, ptr});
    break;
  case RuntimeFn::CanLaunchCooperative:
    name = "bsgprt_can_launch_cooperative";
    type = LLVM::LLVMFunctionType::get(i32, {ptr, i32, i64});
    break;
  case RuntimeFn::CPUChunkIndex:
    name = "bsgprt_cpu_chunk_index";
    type = LLVM::LLVMFunctionType::get(i64, {});
    break;
  case RuntimeFn::CPUTeamRank:
    name = "bsgprt_cpu_team_rank";
    type = LLVM::LLVMFunctionType::get(i64, {});
    break;
  case RuntimeFn::CPUTeamSize:
    name = "bsgprt_cpu_team_size";
    type = LLVM::LLVMFunctionType::get(i64, {});
    break;
  case RuntimeFn::CPUTeamBarrier:
    name = "bsgprt_cpu_team_barrier";
    type = LLVM::LLVMFunctionType::get(voidTy, {});
    break;
  case RuntimeFn::ListReduce:
    name = "bsgprt_list_reduce";
    type = LLVM::LLVMFunctionType::get(voidTy, {i32, i32, ptr, i64, ptr});
    break;
  case RuntimeFn::ListScanExclusive:
    name = "bsgprt_list_scan_exclusive";
    type = LLVM::LLVMFunctionType::get(voidTy, {i32, i32, ptr, ptr, i64, ptr});
    break;
  case RuntimeFn::ListSortPairs:
    name = "bsgprt_list_sort_pairs";
    type = LLVM::LLVMFunctionType::get(voidTy, {i32, ptr, ptr, i64});
    break;
  }
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

Value bsgp::getSourceString(OpBuilder &b, ModuleOp module, Location loc,
                            StringRef text) {
  std::string name = (bsgp::kStringSymbolPrefix +
                      llvm::utohexstr(llvm::xxh3_64bits(text), true))
                         .str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
    std::string data = text.str();
    data.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(b.getContext(), 8),
                                         data.size());
    global = LLVM::GlobalOp::create(gb, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    gb.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

std::string bsgp::formatSourceLocation(Location loc) {
  if (auto fl = dyn_cast<FileLineColLoc>(loc))
    return (fl.getFilename().getValue() + ":" + llvm::Twine(fl.getLine()) +
            ":" + llvm::Twine(fl.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations()) {
      std::string s = formatSourceLocation(inner);
      if (s != "<unknown>")
        return s;
    }
  if (auto cs = dyn_cast<CallSiteLoc>(loc))
    return formatSourceLocation(cs.getCaller());
  if (auto named = dyn_cast<NameLoc>(loc))
    return formatSourceLocation(named.getChildLoc());
  return "<unknown>";
}
