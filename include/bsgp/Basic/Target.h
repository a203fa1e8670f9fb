//===- Target.h - the targets kernels are compiled for ----------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one description of bsgpc's targets: their names (`--target=`,
/// `target.X`, the `bsgp.target` attribute), the runtime's number for each
/// and the facts about work groups that differ between them
/// (docs/language.md, "Per target"). The driver, the interpreter, the passes
/// and the dialect name targets through this header, never by their own
/// strings or flags. Header-only, so that the dialect needs no frontend
/// library.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BASIC_TARGET_H
#define BSGP_BASIC_TARGET_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/bit.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace bsgp {

/// A form kernels are compiled to, in the order a fat object carries them.
enum class Target : uint8_t { CPU, CUDA, SPIRV };

inline constexpr unsigned NumTargets = 3;

/// What differs between the targets where the compiler, the interpreter and
/// the runtime must agree.
struct TargetInfo {
  Target Kind;
  /// The name in `--target=`, `target.<name>` and `bsgp.target`.
  llvm::StringLiteral Name;
  /// BSGPRT_TARGET_<X> of the runtime's C API (bsgp/runtime.h).
  int32_t RuntimeId;
  /// Threads per work group (`group.threads` of a full group).
  uint32_t GroupSize;
  /// Threads per subgroup; 0 where the device decides (Vulkan).
  uint32_t SubgroupSize;
};

inline constexpr TargetInfo TargetInfos[NumTargets] = {
    // The CPU runs ranks independently: a work group of one thread is the
    // only exact choice (as OpenCL CPU implementations make it).
    {Target::CPU, "cpu", 1, 1, 1},
    {Target::CUDA, "cuda", 2, 256, 32},
    {Target::SPIRV, "spirv", 3, 256, 0},
};

constexpr const TargetInfo &getTargetInfo(Target T) {
  return TargetInfos[static_cast<unsigned>(T)];
}

inline llvm::StringRef getTargetName(Target T) { return getTargetInfo(T).Name; }

/// The target named `Name`, if any.
inline std::optional<Target> parseTargetName(llvm::StringRef Name) {
  for (const TargetInfo &I : TargetInfos)
    if (I.Name == Name)
      return I.Kind;
  return std::nullopt;
}

/// The targets of one object (or one option): a small set, iterated in the
/// order of `Target`.
class TargetSet {
public:
  constexpr TargetSet() = default;
  constexpr TargetSet(std::initializer_list<Target> Ts) {
    for (Target T : Ts)
      Bits |= bit(T);
  }

  bool contains(Target T) const { return Bits & bit(T); }
  void insert(Target T) { Bits |= bit(T); }
  bool empty() const { return Bits == 0; }
  unsigned size() const { return llvm::popcount(Bits); }
  /// The single target of a set of one.
  std::optional<Target> getSingle() const {
    if (size() != 1)
      return std::nullopt;
    return static_cast<Target>(llvm::countr_zero(Bits));
  }
  llvm::SmallVector<Target, NumTargets> targets() const {
    llvm::SmallVector<Target, NumTargets> Ts;
    for (const TargetInfo &I : TargetInfos)
      if (contains(I.Kind))
        Ts.push_back(I.Kind);
    return Ts;
  }
  bool operator==(const TargetSet &O) const { return Bits == O.Bits; }

  /// Parses a comma-separated list of names ("cpu,cuda"). Sets `Bad` to the
  /// first name that is not a target and returns nullopt on an error.
  static std::optional<TargetSet> parse(llvm::StringRef List,
                                        std::string *Bad = nullptr) {
    TargetSet S;
    llvm::SmallVector<llvm::StringRef> Names;
    List.split(Names, ',');
    for (llvm::StringRef N : Names) {
      std::optional<Target> T = parseTargetName(N.trim());
      if (!T) {
        if (Bad)
          *Bad = N.str();
        return std::nullopt;
      }
      S.insert(*T);
    }
    return S;
  }

  /// The names, comma-separated: the inverse of parse.
  std::string str() const {
    std::string S;
    for (Target T : targets()) {
      if (!S.empty())
        S += ',';
      S += getTargetName(T).str();
    }
    return S;
  }

private:
  static constexpr uint8_t bit(Target T) {
    return uint8_t(1u << static_cast<unsigned>(T));
  }
  uint8_t Bits = 0;
};

} // namespace bsgp

#endif // BSGP_BASIC_TARGET_H
