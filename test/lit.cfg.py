# -*- Python -*-
#===- lit.cfg.py - the bsgpc lit suite ------------------------------------===#
#
# Optional tools become lit features so that tests needing them say
# `REQUIRES: ptxas` (or spirv-val, vulkan) and run whenever the tool exists:
# a test is never skipped silently on a machine that has what it needs.
#
#===----------------------------------------------------------------------===#
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "BSGP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".bsgp", ".mlir", ".test", ".cpp"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.bsgp_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%bsgp_src_root", config.bsgp_src_root))
config.substitutions.append(("%bsgp_obj_root", config.bsgp_obj_root))
config.substitutions.append(("%bsgp_lib_dir", config.bsgp_lib_dir))
config.substitutions.append(("%host_cxx", config.host_cxx))

llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.use_default_substitutions()

tool_dirs = [config.bsgp_tools_dir, config.llvm_tools_dir]
tools = ["bsgpc", "bsgpi", "bsgp-opt", "bsgp-smith", "bsgp-lsp", "FileCheck", "not", "count", "split-file", "llvm-nm", "llvm-dwarfdump", "llvm-objdump", "llvm-strings", "llvm-readelf",
         "mlir-opt", "mlir-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Optional tools.
# The C calling convention bsgpc implements for structs passed by value to
# C functions (lib/MLIRGen/MLIRGenCABI.cpp) is x86-64 System V's.
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
if config.spirv_val and os.path.exists(config.spirv_val):
    config.available_features.add("spirv-val")
    config.substitutions.append(("%spirv-val", config.spirv_val))
# clang-format of the LLVM release the project builds with (its style
# changes between releases): test/Lint/clang-format.test.
for cf in [shutil.which("clang-format-22"), "/usr/lib/llvm-22/bin/clang-format"]:
    if cf and os.path.exists(cf):
        config.available_features.add("clang-format")
        config.substitutions.append(("%clang_format", cf))
        break
# libdevice (device math of the CUDA target) comes with the CUDA toolkit.
for cuda in [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"]:
    if cuda and os.path.exists(
            os.path.join(cuda, "nvvm", "libdevice", "libdevice.10.bc")):
        config.available_features.add("cuda-libdevice")
        break
# Execution tests run their programs under %valgrind: memcheck with a
# non-zero exit on any error where valgrind is installed, nothing otherwise.
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
    config.substitutions.append(
        ("%valgrind", "valgrind --error-exitcode=1 -q"))
else:
    config.substitutions.append(("%valgrind", ""))
if config.fuzzers_enabled and all(
        os.path.exists(os.path.join(config.bsgp_tools_dir, tool))
        for tool in ("bsgp-frontend-fuzzer", "bsgp-mlirgen-fuzzer")):
    config.available_features.add("fuzzer")


def _has_vulkan_device():
    """A Vulkan ICD is usable (lavapipe counts) if vulkaninfo lists a device."""
    vi = shutil.which("vulkaninfo")
    if not vi:
        return False
    try:
        out = subprocess.run([vi, "--summary"], capture_output=True,
                             text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "deviceName" in out.stdout


if _has_vulkan_device():
    config.available_features.add("vulkan")
