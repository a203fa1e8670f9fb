#===- BSGPHelpers.cmake - small wrappers shared by every folder ----------===#
#
# bsgp_add_library(<name> <sources>... [LINK <libs>...] [DEPENDS <targets>...])
#   A static library of the compiler. It links the shared libLLVM.so (and
#   libMLIR.so when MLIR is listed in LINK) instead of LLVM's static archives.
#
#===----------------------------------------------------------------------===#
function(bsgp_add_library name)
  cmake_parse_arguments(ARG "" "" "LINK;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PUBLIC ${ARG_LINK} LLVM)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
endfunction()
