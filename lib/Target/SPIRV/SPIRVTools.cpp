//===- SPIRVTools.cpp - validation, optimization and disassembly ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The SPIR-V target's use of the SPIRV-Tools library (the code behind
// spirv-val, spirv-opt and spirv-dis). It is kept in this one file so that
// only the SPIR-V target depends on SPIRV-Tools' headers.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/SPIRV/SPIRV.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include "spirv-tools/libspirv.hpp"
#include "spirv-tools/optimizer.hpp"

#include <cstring>

using namespace mlir;

/// Every module is checked against the Vulkan 1.3 client API, the
/// environment the runtime loads it into.
static constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_3;

/// The validator's settings. The defaults are those of `spirv-val
/// --target-env vulkan1.3`: the modules need no relaxed or scalar block
/// layouts, since the only Block they declare is the 16-byte push-constant
/// struct and physical-storage-buffer accesses carry explicit alignments.
static spvtools::ValidatorOptions getValidatorOptions() {
  return spvtools::ValidatorOptions();
}

namespace {
/// SPIRV-Tools reports through a callback; this keeps the first error and
/// the index of the instruction it is about.
struct Messages {
  std::string text;
  size_t instruction = 0;
  bool hasInstruction = false;

  spvtools::MessageConsumer consumer() {
    return [this](spv_message_level_t level, const char *,
                  const spv_position_t &position, const char *message) {
      if (level > SPV_MSG_ERROR || !text.empty())
        return;
      text = message;
      instruction = position.index;
      hasInstruction = true;
    };
  }
};
} // namespace

/// The name (OpName) of the function holding instruction number
/// `instruction`, or "" outside functions. The validator reports positions
/// as instruction numbers counted from 1 after the header.
static std::string findFunctionName(ArrayRef<uint32_t> words,
                                    size_t instruction) {
  constexpr uint32_t kOpName = 5, kOpFunction = 54, kOpFunctionEnd = 56;
  llvm::DenseMap<uint32_t, std::string> names;
  uint32_t current = 0;
  size_t n = 0;
  for (size_t i = 5; i < words.size(); ++n) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size())
      break;
    if (opcode == kOpName && count >= 3) {
      const char *s = reinterpret_cast<const char *>(&words[i + 2]);
      names[words[i + 1]] = std::string(s, strnlen(s, (count - 2) * 4));
    } else if (opcode == kOpFunction && count >= 3) {
      current = words[i + 2];
    }
    if (n + 1 == instruction)
      return current ? names.lookup(current) : std::string();
    if (opcode == kOpFunctionEnd)
      current = 0;
    i += count;
  }
  return std::string();
}

static bool validate(ArrayRef<uint32_t> words, bsgp::SPIRVToolsError &error) {
  spvtools::SpirvTools tools(kTargetEnv);
  Messages messages;
  tools.SetMessageConsumer(messages.consumer());
  if (tools.Validate(words.data(), words.size(), getValidatorOptions()))
    return true;
  error.message = messages.text.empty() ? "(no message)" : messages.text;
  if (messages.hasInstruction)
    error.function = findFunctionName(words, messages.instruction);
  return false;
}

LogicalResult bsgp::validateAndOptimizeSPIRV(std::vector<uint32_t> &words,
                                             unsigned optLevel,
                                             SPIRVToolsError &error) {
  error.optimized = error.optimizerFailed = false;
  if (!validate(words, error))
    return failure();
  if (optLevel == 0)
    return success();

  spvtools::Optimizer optimizer(kTargetEnv);
  Messages messages;
  optimizer.SetMessageConsumer(messages.consumer());
  optimizer.RegisterPerformancePasses();
  spvtools::OptimizerOptions options;
  // Validated just above; the result is validated below.
  options.set_run_validator(false);
  options.set_validator_options(getValidatorOptions());
  std::vector<uint32_t> optimized;
  error.optimized = true;
  if (!optimizer.Run(words.data(), words.size(), &optimized, options)) {
    error.optimizerFailed = true;
    error.message = messages.text.empty() ? "(no message)" : messages.text;
    return failure();
  }
  if (!validate(optimized, error))
    return failure();
  words = std::move(optimized);
  return success();
}

LogicalResult bsgp::disassembleSPIRV(StringRef bytes, std::string &text,
                                     std::string &error) {
  if (bytes.size() % 4 != 0) {
    error = "SPIR-V binary of " + std::to_string(bytes.size()) +
            " bytes is not a whole number of words";
    return failure();
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  spvtools::SpirvTools tools(kTargetEnv);
  Messages messages;
  tools.SetMessageConsumer(messages.consumer());
  // spirv-dis's defaults: the header comment, indented instructions and
  // names from OpName instead of numbers.
  if (!tools.Disassemble(words, &text,
                         SPV_BINARY_TO_TEXT_OPTION_INDENT |
                             SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES)) {
    error = messages.text.empty() ? "cannot disassemble the SPIR-V binary"
                                  : messages.text;
    return failure();
  }
  return success();
}
