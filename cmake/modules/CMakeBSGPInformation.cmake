#===- CMakeBSGPInformation.cmake - how CMake compiles and links BSGP ------===#
#
# Rules for .bsgp sources: `bsgpc <defines> <includes> <flags> -c`, with
# bsgpc's -MD side output for dependency scanning (headers included with
# #include and files brought in with `import`), CMAKE_BSGP_FLAGS and the
# per-configuration flags, and the BSGP_TARGETS target property (a list of
# cpu, cuda, spirv; initialized from the BSGP_TARGETS variable, since CMake
# reserves CMAKE_ names for its own) as --target=.
#
#===----------------------------------------------------------------------===#
include(CMakeInitializeConfigs)

set(CMAKE_BSGP_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_BSGP "-I")
set(CMAKE_BSGP_FLAGS_INIT "$ENV{BSGPFLAGS} ${CMAKE_BSGP_FLAGS_INIT}")
string(APPEND CMAKE_BSGP_FLAGS_DEBUG_INIT " -O0 -g")
string(APPEND CMAKE_BSGP_FLAGS_RELEASE_INIT " -O2")
string(APPEND CMAKE_BSGP_FLAGS_RELWITHDEBINFO_INIT " -O2 -g")
string(APPEND CMAKE_BSGP_FLAGS_MINSIZEREL_INIT " -O2")
cmake_initialize_per_config_variable(CMAKE_BSGP_FLAGS
  "Flags used by the BSGP compiler")

# Dependencies from the compiler, in make syntax (Ninja and Makefiles).
set(CMAKE_DEPFILE_FLAGS_BSGP "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
set(CMAKE_BSGP_DEPFILE_FORMAT gcc)
set(CMAKE_BSGP_DEPENDS_USE_COMPILER TRUE)

if(NOT CMAKE_BSGP_COMPILE_OBJECT)
  set(CMAKE_BSGP_COMPILE_OBJECT
    "<CMAKE_BSGP_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -c <SOURCE> -o <OBJECT>")
endif()
# A program of BSGP sources only: bsgpc links it with libbsgprt itself.
if(NOT CMAKE_BSGP_LINK_EXECUTABLE)
  set(CMAKE_BSGP_LINK_EXECUTABLE
    "<CMAKE_BSGP_COMPILER> <FLAGS> <CMAKE_BSGP_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
# Shared libraries and modules of BSGP sources, linked by bsgpc with
# libbsgprt as clang links C ones (.bsgp objects are always position
# independent).
set(CMAKE_SHARED_LIBRARY_BSGP_FLAGS "-fPIC")
set(CMAKE_SHARED_LIBRARY_CREATE_BSGP_FLAGS "-shared")
set(CMAKE_SHARED_MODULE_CREATE_BSGP_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_BSGP_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_BSGP_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_BSGP_FLAG_SEP ":")
set(CMAKE_EXECUTABLE_RUNTIME_BSGP_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_BSGP_FLAG_SEP ":")
if(NOT CMAKE_BSGP_CREATE_SHARED_LIBRARY)
  set(CMAKE_BSGP_CREATE_SHARED_LIBRARY
    "<CMAKE_BSGP_COMPILER> <CMAKE_SHARED_LIBRARY_BSGP_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_BSGP_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_BSGP_CREATE_SHARED_MODULE)
  set(CMAKE_BSGP_CREATE_SHARED_MODULE
    "<CMAKE_BSGP_COMPILER> <CMAKE_SHARED_LIBRARY_BSGP_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_MODULE_CREATE_BSGP_FLAGS> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_BSGP_ARCHIVE_CREATE)
  set(CMAKE_BSGP_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT CMAKE_BSGP_ARCHIVE_APPEND)
  set(CMAKE_BSGP_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT CMAKE_BSGP_ARCHIVE_FINISH)
  set(CMAKE_BSGP_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
endif()

# BSGP_TARGETS: where a target's kernels run. A compile option with a
# generator expression reads it per target (rule variables cannot).
define_property(TARGET PROPERTY BSGP_TARGETS
  INITIALIZE_FROM_VARIABLE BSGP_TARGETS
  BRIEF_DOCS "Targets of the kernels of the target's BSGP sources (cpu, cuda, spirv)"
  FULL_DOCS "A list passed to bsgpc as --target=; empty means bsgpc's default (cpu).")
add_compile_options(
  "$<$<AND:$<COMPILE_LANGUAGE:BSGP>,$<BOOL:$<TARGET_PROPERTY:BSGP_TARGETS>>>:--target=$<JOIN:$<TARGET_PROPERTY:BSGP_TARGETS>,$<COMMA>>>")

set(CMAKE_BSGP_INFORMATION_LOADED 1)
