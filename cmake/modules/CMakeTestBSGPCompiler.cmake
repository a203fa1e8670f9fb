#===- CMakeTestBSGPCompiler.cmake - check that bsgpc works ----------------===#
#
# A syntax check of a one-spawn program: it needs bsgpc's collective library
# and resource headers, so a bsgpc moved away from its prefix fails here,
# at configure time, and not in the first build.
#
#===----------------------------------------------------------------------===#
if(NOT CMAKE_BSGP_COMPILER_WORKS)
  message(CHECK_START "Check for working BSGP compiler: ${CMAKE_BSGP_COMPILER}")
  set(_bsgp_test "${CMAKE_PLATFORM_INFO_DIR}/CMakeTmp/testBSGPCompiler.bsgp")
  file(WRITE "${_bsgp_test}" "#include <bsgp.h>
void fill(int *a, int n) {
  spawn (n) {
    a[thread.rank] = reduce(+, thread.rank);
  }
}
")
  execute_process(COMMAND "${CMAKE_BSGP_COMPILER}" -fsyntax-only "${_bsgp_test}"
    RESULT_VARIABLE _bsgp_rc OUTPUT_VARIABLE _bsgp_out ERROR_VARIABLE _bsgp_out)
  if(NOT _bsgp_rc EQUAL 0)
    message(CHECK_FAIL "broken")
    message(FATAL_ERROR "The BSGP compiler ${CMAKE_BSGP_COMPILER} cannot "
      "check a simple program:\n${_bsgp_out}")
  endif()
  message(CHECK_PASS "works")
  set(CMAKE_BSGP_COMPILER_WORKS TRUE CACHE INTERNAL "")
endif()
