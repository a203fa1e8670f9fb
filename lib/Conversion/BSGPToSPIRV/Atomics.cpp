//===- Atomics.cpp - BSGP atomics as SPIR-V atomic instructions -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Shared by the device-memory atomics (PhysicalStorageBuffer pointers at
// device scope) and the atomics on `local` arrays (Workgroup variables at
// workgroup scope).
//
//===----------------------------------------------------------------------===//

#include "Atomics.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;

Type bsgp::getSPIRVAtomicIntType(Type type) {
  if (auto ft = dyn_cast<FloatType>(type))
    return IntegerType::get(type.getContext(), ft.getWidth());
  return type;
}

Value bsgp::emitSPIRVAtomicRMW(OpBuilder &b, Location loc,
                               arith::AtomicRMWKind kind, Type type, Value ptr,
                               Value v, spirv::Scope scope) {
  using K = arith::AtomicRMWKind;
  Type intTy = getSPIRVAtomicIntType(type);
  if (intTy != type) {
    if (kind != K::assign)
      return {};
    v = spirv::BitcastOp::create(b, loc, intTy, v);
  }
  auto sem = spirv::MemorySemantics::None;
  Value old;
  switch (kind) {
  case K::addi:
    old = spirv::AtomicIAddOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::mins:
    old = spirv::AtomicSMinOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::minu:
    old = spirv::AtomicUMinOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::maxs:
    old = spirv::AtomicSMaxOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::maxu:
    old = spirv::AtomicUMaxOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::andi:
    old = spirv::AtomicAndOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::ori:
    old = spirv::AtomicOrOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::xori:
    old = spirv::AtomicXorOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  case K::assign:
    old = spirv::AtomicExchangeOp::create(b, loc, intTy, ptr, scope, sem, v);
    break;
  default:
    return {};
  }
  if (intTy != type)
    old = spirv::BitcastOp::create(b, loc, type, old);
  return old;
}

Value bsgp::emitSPIRVAtomicCAS(OpBuilder &b, Location loc, Type type, Value ptr,
                               Value expected, Value desired,
                               spirv::Scope scope) {
  Type intTy = getSPIRVAtomicIntType(type);
  if (intTy != type) {
    expected = spirv::BitcastOp::create(b, loc, intTy, expected);
    desired = spirv::BitcastOp::create(b, loc, intTy, desired);
  }
  Value old = spirv::AtomicCompareExchangeOp::create(
      b, loc, intTy, ptr, scope, spirv::MemorySemantics::None,
      spirv::MemorySemantics::None, desired, expected);
  if (intTy != type)
    old = spirv::BitcastOp::create(b, loc, type, old);
  return old;
}
