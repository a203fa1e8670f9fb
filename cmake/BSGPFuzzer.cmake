#===- BSGPFuzzer.cmake - libFuzzer targets over the compiler's sources ---===#
#
# bsgp_add_fuzzer(<name> <sources>... FROM <libs>... LINK <libs>...
#                 [DEPENDS <targets>...])
#   A libFuzzer executable. The sources of the FROM libraries are compiled
#   again into it with coverage and sanitizer instrumentation, so that the
#   fuzzer is guided by, and checks, exactly that code; the LINK libraries
#   stay uninstrumented. Taking the source lists from the library targets
#   keeps the fuzzer in step when a library's files are split or renamed.
#
#===----------------------------------------------------------------------===#
set(BSGP_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=undefined)

function(bsgp_add_fuzzer name)
  cmake_parse_arguments(ARG "" "" "FROM;LINK;DEPENDS" ${ARGN})
  set(sources ${ARG_UNPARSED_ARGUMENTS})
  foreach(lib ${ARG_FROM})
    get_target_property(dir ${lib} SOURCE_DIR)
    get_target_property(srcs ${lib} SOURCES)
    foreach(src ${srcs})
      if(IS_ABSOLUTE ${src})
        list(APPEND sources ${src})
      else()
        list(APPEND sources ${dir}/${src})
      endif()
    endforeach()
    # The generated headers (tablegen) the library's sources include.
    get_target_property(deps ${lib} MANUALLY_ADDED_DEPENDENCIES)
    if(deps)
      list(APPEND ARG_DEPENDS ${deps})
    endif()
  endforeach()
  add_executable(${name} ${sources})
  target_compile_options(${name} PRIVATE ${BSGP_FUZZ_FLAGS})
  target_link_options(${name} PRIVATE ${BSGP_FUZZ_FLAGS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK} LLVM)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
endfunction()
