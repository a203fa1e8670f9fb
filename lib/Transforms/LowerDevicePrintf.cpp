//===- LowerDevicePrintf.cpp - printf from the threads --------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A thread does not format text: each bsgp.printf it runs appends a record
// (its format's number, then its arguments as 32-bit words) to a print
// buffer in device memory, and the host formats the records with C's
// printf after the superstep (docs/language.md, "Device printf"). That is
// one mechanism for every target, CPU, CUDA and SPIR-V alike, and the text
// reaches the program's own stdout in order with what host code prints.
//
// Buffer layout (32-bit words): [0] the words used (an atomic counter),
// [1] the capacity in words, [2] a flag set when a record did not fit,
// then the records. A thread claims its words with one atomic add and
// writes them only if they fit: the records that fit are always a prefix,
// and the runtime reports that the rest was lost. Once the buffer is full
// threads stop claiming, so the counter cannot wrap around.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "DevicePrintf.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERDEVICEPRINTFPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// The first record word after the buffer's counter, capacity and lost
/// flag.
constexpr int64_t kHeaderWords = 3;

struct PrintfLowering {
  ModuleOp module;
  OpBuilder mb;
  /// The format table: per format, its argument kinds and its text.
  std::string table;
  llvm::StringMap<unsigned> formats;
  /// The functions a thread may print from, directly or through calls,
  /// and their copies taking the buffer as a last argument.
  llvm::SetVector<func::FuncOp> printing;
  llvm::DenseMap<Operation *, func::FuncOp> copies;
  unsigned hostFormats = 0;

  explicit PrintfLowering(ModuleOp m)
      : module(m), mb(OpBuilder::atBlockEnd(m.getBody())) {}

  Type ptrType() {
    return bsgp::PtrType::get(module.getContext(),
                              IntegerType::get(module.getContext(), 32));
  }

  LLVM::LLVMFuncOp runtimeFunction(StringRef name,
                                   LLVM::LLVMFunctionType type) {
    if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return f;
    return LLVM::LLVMFuncOp::create(mb, module.getLoc(), name, type);
  }

  /// Argument \p v as the record stores it: 'i' one word (int, uint), 'I'
  /// two (the 64-bit integers, low word first), 'f' one (a float promoted
  /// to double: the thread stores the float, so that a target without
  /// doubles never computes one), 'd' two (a double).
  static char kindOf(Value v) {
    if (v.getType().isInteger(32))
      return 'i';
    if (v.getType().isInteger(64))
      return 'I';
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      if (ext.getIn().getType().isF32())
        return 'f';
    return 'd';
  }

  unsigned formatIndex(PrintfOp op) {
    // The kinds start with ':', so that an entry without arguments is not
    // taken for the table's end.
    std::string entry = ":";
    for (Value a : op.getArgs())
      entry.push_back(kindOf(a));
    entry.push_back('\0');
    entry += op.getFormat();
    entry.push_back('\0');
    auto [it, inserted] = formats.try_emplace(entry, formats.size());
    if (inserted)
      table += entry;
    return it->second;
  }

  void findPrinting();
  void makeCopies();
  void lowerInThread(PrintfOp op, Value buffer);
  void rewriteThreadCode(Region &region, Value buffer);
  void lowerSpawn(SpawnOp spawn);
  void lowerOnHost(PrintfOp op);
  void tableGlobal();
  void finishTable();
};

} // namespace

/// The functions that print, directly or through the functions they call.
void PrintfLowering::findPrinting() {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->walk([](PrintfOp) {
            return WalkResult::interrupt();
          }).wasInterrupted())
      printing.insert(fn);
  SymbolTable symbols(module);
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (printing.contains(fn))
        continue;
      bool calls = fn->walk([&](func::CallOp call) {
                       auto callee =
                           symbols.lookup<func::FuncOp>(call.getCallee());
                       return callee && printing.contains(callee)
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     }).wasInterrupted();
      if (calls) {
        printing.insert(fn);
        changed = true;
      }
    }
  }
}

/// Each printing function that is not host code gets a copy for the
/// threads, `<name>__printf`, with the buffer as its last argument; the
/// original stays for host callers and prints with C's printf.
void PrintfLowering::makeCopies() {
  for (func::FuncOp fn : printing) {
    // Host functions print from their spawns; collective functions are
    // inlined into the spawns by now.
    if (!fn->hasAttr(BSGPDialect::getDeviceAttrName()))
      continue;
    auto copy = cast<func::FuncOp>(fn->clone());
    copy.setSymName((fn.getSymName() + "__printf").str());
    copy.setPrivate();
    SmallVector<Type> inputs(fn.getArgumentTypes());
    inputs.push_back(ptrType());
    copy.setType(
        FunctionType::get(module.getContext(), inputs, fn.getResultTypes()));
    copy.getBody().addArgument(ptrType(), fn.getLoc());
    mb.insert(copy);
    copies[fn] = copy;
  }
  for (auto [fn, copy] : copies)
    rewriteThreadCode(copy.getBody(), copy.getArguments().back());
}

/// The thread's side of \p op: claim the record's words, then store them
/// if they fit.
void PrintfLowering::lowerInThread(PrintfOp op, Value buffer) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  // The format's number plus one: the runtime keeps the records' area
  // zero, so that it tells a record that was written from the claim of one
  // that did not fit.
  SmallVector<Value> words{c32(formatIndex(op) + 1)};
  for (Value a : op.getArgs()) {
    switch (kindOf(a)) {
    case 'i':
      words.push_back(a);
      break;
    case 'f':
      words.push_back(arith::BitcastOp::create(
          b, loc, i32, a.getDefiningOp<arith::ExtFOp>().getIn()));
      break;
    default: {
      Value bits = a;
      if (isa<FloatType>(a.getType()))
        bits = arith::BitcastOp::create(b, loc, b.getI64Type(), a);
      words.push_back(arith::TruncIOp::create(b, loc, i32, bits));
      Value high = arith::ShRUIOp::create(
          b, loc, bits,
          arith::ConstantIntOp::create(b, loc, b.getI64Type(), 32));
      words.push_back(arith::TruncIOp::create(b, loc, i32, high));
      break;
    }
    }
  }
  Value n = c32(words.size());
  Value capacity = PtrLoadOp::create(b, loc, i32, buffer, c32(1));
  // Once the buffer is full, threads stop claiming: the counter cannot
  // wrap around into records that are already there.
  Value used = AtomicLoadOp::create(b, loc, i32, buffer);
  Value open =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, used, capacity);
  auto ifOpen = scf::IfOp::create(b, loc, open, /*withElseRegion=*/true);
  // A record that does not fit raises the lost flag, for the runtime to
  // report.
  auto markLost = [&](scf::IfOp branch) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.elseBlock());
    PtrStoreOp::create(b, loc, c32(1), buffer, c32(2));
  };
  markLost(ifOpen);
  b.setInsertionPointToStart(ifOpen.thenBlock());
  Value at =
      AtomicRMWOp::create(b, loc, i32, arith::AtomicRMWKind::addi, n, buffer);
  // The runtime's capacity is far above any record's size.
  Value room = arith::SubIOp::create(b, loc, capacity, n);
  Value fits =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, at, room);
  auto ifFits = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
  markLost(ifFits);
  b.setInsertionPointToStart(ifFits.thenBlock());
  Value base = arith::AddIOp::create(b, loc, at, c32(kHeaderWords));
  for (auto [i, w] : llvm::enumerate(words)) {
    Value index = arith::AddIOp::create(b, loc, base, c32(i));
    PtrStoreOp::create(b, loc, w, buffer, index);
  }
  op.erase();
}

/// Lowers the printfs of thread code \p region and redirects its calls of
/// printing functions to their thread copies.
void PrintfLowering::rewriteThreadCode(Region &region, Value buffer) {
  SmallVector<PrintfOp> prints;
  SmallVector<func::CallOp> calls;
  region.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // A require block is host code: its printfs are host calls.
    if (isa<RequireOp>(op))
      return WalkResult::skip();
    if (auto p = dyn_cast<PrintfOp>(op))
      prints.push_back(p);
    else if (auto c = dyn_cast<func::CallOp>(op))
      calls.push_back(c);
    return WalkResult::advance();
  });
  for (PrintfOp p : prints)
    lowerInThread(p, buffer);
  for (func::CallOp call : calls) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    auto it = callee ? copies.find(callee) : copies.end();
    if (it == copies.end())
      continue;
    SmallVector<Value> args(call.getOperands());
    args.push_back(buffer);
    OpBuilder b(call);
    auto replacement = func::CallOp::create(b, call.getLoc(), it->second, args);
    replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    call.replaceAllUsesWith(replacement.getResults());
    call.erase();
  }
}

/// The format table, for the flushes. It is complete only once every
/// printf is lowered (finishTable).
void PrintfLowering::tableGlobal() {
  if (module.lookupSymbol<LLVM::GlobalOp>(kPrintfTableGlobal))
    return;
  OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
  LLVM::GlobalOp::create(
      gb, module.getLoc(), LLVM::LLVMArrayType::get(gb.getI8Type(), 1),
      /*isConstant=*/true, LLVM::Linkage::Internal, kPrintfTableGlobal,
      gb.getStringAttr(StringRef("\0", 1)));
}

/// The table the runtime reads: for each format in the order of its
/// number, ':' and its argument kinds, then its text, each ending with a
/// zero byte; then a zero byte.
void PrintfLowering::finishTable() {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kPrintfTableGlobal);
  if (!global)
    return;
  std::string data = table;
  data.push_back('\0');
  global.setGlobalTypeAttr(TypeAttr::get(LLVM::LLVMArrayType::get(
      IntegerType::get(module.getContext(), 8), data.size())));
  global.setValueAttr(StringAttr::get(module.getContext(), data));
}

/// A spawn whose threads print: the host asks the runtime for the buffer
/// before it. The records are printed after each superstep that can print,
/// once supersteps are kernels: bsgp-outline-kernels calls
/// bsgprt_printf_flush after each launch of a kernel that takes the buffer
/// (docs/passes.md), which is the superstep order even where the spawn is
/// cut into segments at uniform branches and loops, and lets a buffer that
/// holds one superstep's lines lose none.
void PrintfLowering::lowerSpawn(SpawnOp spawn) {
  bool prints = false;
  spawn.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<RequireOp>(op))
      return WalkResult::skip();
    auto call = dyn_cast<func::CallOp>(op);
    if (isa<PrintfOp>(op) ||
        (call && copies.count(module.lookupSymbol(call.getCallee()))))
      prints = true;
    return prints ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!prints)
    return;
  MLIRContext *ctx = module.getContext();
  Type llvmPtr = LLVM::LLVMPointerType::get(ctx);
  Location loc = spawn.getLoc();
  OpBuilder b(spawn);
  auto getBuffer = runtimeFunction(kPrintfBufferFunction,
                                   LLVM::LLVMFunctionType::get(llvmPtr, {}));
  runtimeFunction(kPrintfFlushFunction,
                  LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                              {llvmPtr, llvmPtr}));
  tableGlobal();
  Value raw = LLVM::CallOp::create(b, loc, getBuffer, ValueRange{}).getResult();
  Value buffer =
      UnrealizedConversionCastOp::create(b, loc, ptrType(), raw).getResult(0);
  rewriteThreadCode(spawn.getBody(), buffer);
}

/// A printf left outside thread code (in a device function that host code
/// calls) is C's printf.
void PrintfLowering::lowerOnHost(PrintfOp op) {
  MLIRContext *ctx = module.getContext();
  Type llvmPtr = LLVM::LLVMPointerType::get(ctx);
  auto printf = runtimeFunction(
      "printf", LLVM::LLVMFunctionType::get(IntegerType::get(ctx, 32),
                                            {llvmPtr}, /*isVarArg=*/true));
  std::string text = op.getFormat().str();
  text.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
  OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
  auto global = LLVM::GlobalOp::create(
      gb, op.getLoc(), type, /*isConstant=*/true, LLVM::Linkage::Internal,
      "printf.host." + std::to_string(hostFormats++), gb.getStringAttr(text));
  OpBuilder b(op);
  SmallVector<Value> args{LLVM::AddressOfOp::create(b, op.getLoc(), global)};
  llvm::append_range(args, op.getArgs());
  LLVM::CallOp::create(b, op.getLoc(), printf, args);
  op.erase();
}

Value bsgp::getPrintBuffer(Value v) {
  auto cast = v.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast || cast->getNumOperands() != 1)
    return {};
  auto call = cast->getOperand(0).getDefiningOp<LLVM::CallOp>();
  if (!call || call.getCallee() != kPrintfBufferFunction)
    return {};
  return call.getResult();
}

void bsgp::buildPrintfFlush(OpBuilder &b, Location loc, Value buffer) {
  auto module = buffer.getParentRegion()->getParentOfType<ModuleOp>();
  auto flush = module.lookupSymbol<LLVM::LLVMFuncOp>(kPrintfFlushFunction);
  auto table = module.lookupSymbol<LLVM::GlobalOp>(kPrintfTableGlobal);
  Value address = LLVM::AddressOfOp::create(b, loc, table);
  LLVM::CallOp::create(b, loc, flush, ValueRange{buffer, address});
}

namespace {
struct LowerDevicePrintfPass
    : public bsgp::impl::BSGPLowerDevicePrintfPassBase<LowerDevicePrintfPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    PrintfLowering lowering(module);
    lowering.findPrinting();
    if (lowering.printing.empty())
      return;
    lowering.makeCopies();
    SmallVector<SpawnOp> spawns;
    module.walk([&](SpawnOp s) { spawns.push_back(s); });
    for (SpawnOp s : spawns)
      lowering.lowerSpawn(s);
    SmallVector<PrintfOp> left;
    module.walk([&](PrintfOp p) { left.push_back(p); });
    for (PrintfOp p : left)
      lowering.lowerOnHost(p);
    lowering.finishTable();
  }
};
} // namespace
