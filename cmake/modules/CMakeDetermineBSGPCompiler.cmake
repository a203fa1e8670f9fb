#===- CMakeDetermineBSGPCompiler.cmake - find bsgpc for enable_language ---===#
#
# Run by enable_language(BSGP) / project(... LANGUAGES BSGP): picks the
# compiler (CMAKE_BSGP_COMPILER, else $BSGPC, else the bsgpc of the package
# this file belongs to, else bsgpc on PATH) and records it in
# CMakeBSGPCompiler.cmake, as CMake does for its own languages.
#
#===----------------------------------------------------------------------===#
if(NOT CMAKE_BSGP_COMPILER)
  if(DEFINED ENV{BSGPC} AND NOT "$ENV{BSGPC}" STREQUAL "")
    set(CMAKE_BSGP_COMPILER "$ENV{BSGPC}" CACHE FILEPATH "The BSGP compiler")
  elseif(BSGP_COMPILER)
    set(CMAKE_BSGP_COMPILER "${BSGP_COMPILER}" CACHE FILEPATH
        "The BSGP compiler")
  else()
    # lib/cmake/BSGP -> bin of the same prefix.
    find_program(CMAKE_BSGP_COMPILER NAMES bsgpc
      HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../bin"
      DOC "The BSGP compiler")
  endif()
endif()
mark_as_advanced(CMAKE_BSGP_COMPILER)
if(NOT CMAKE_BSGP_COMPILER)
  message(FATAL_ERROR "No BSGP compiler found: install bsgpc, put it on "
    "PATH, or set CMAKE_BSGP_COMPILER or the BSGPC environment variable.")
endif()

execute_process(COMMAND "${CMAKE_BSGP_COMPILER}" --version
  OUTPUT_VARIABLE _bsgp_version_out RESULT_VARIABLE _bsgp_version_rc
  ERROR_QUIET)
if(NOT _bsgp_version_rc EQUAL 0
   OR NOT _bsgp_version_out MATCHES "bsgpc version ([0-9.]+)")
  message(FATAL_ERROR "${CMAKE_BSGP_COMPILER} is not a working bsgpc "
    "(`bsgpc --version` failed)")
endif()
set(CMAKE_BSGP_COMPILER_ID "BSGPC")
set(CMAKE_BSGP_COMPILER_VERSION "${CMAKE_MATCH_1}")
set(CMAKE_BSGP_COMPILER_ENV_VAR "BSGPC")
set(CMAKE_BSGP_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeBSGPCompiler.cmake.in"
  "${CMAKE_PLATFORM_INFO_DIR}/CMakeBSGPCompiler.cmake" @ONLY)
