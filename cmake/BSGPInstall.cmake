#===- BSGPInstall.cmake - what `cmake --install` and CPack install --------===#
#
# A relocatable prefix: bsgpc finds its runtime, headers and collective
# library relative to its own location (<prefix>/bin/../lib), so the tree
# may be installed or moved anywhere. The layout is fixed (bin, lib,
# include) for that reason, not GNUInstallDirs' multiarch lib directory.
#
#   bin/bsgpc bsgp-opt bsgpi          the tools
#   lib/libbsgprt.so libbsgprt.a      the runtime (runtime/CMakeLists.txt)
#   include/bsgp/                     the runtime's C and C++ headers
#   lib/bsgp/collectives.bsgp         the collective library
#   lib/bsgp/include/*.h              <bsgp.h>, <math.h>, ... for BSGP programs
#   lib/cmake/BSGP/                   find_package(BSGP) and BSGP as a language
#   lib/pkgconfig/bsgprt.pc           pkg-config
#   share/man/man1/bsgpc.1.gz         the manual page
#
#===----------------------------------------------------------------------===#
include(CMakePackageConfigHelpers)

set(BSGP_INSTALL_BINDIR bin)
set(BSGP_INSTALL_LIBDIR lib)
set(BSGP_INSTALL_INCLUDEDIR include)
set(BSGP_INSTALL_CMAKEDIR lib/cmake/BSGP)

set(BSGP_INSTALLED_TOOLS bsgpc bsgp-opt)
if(TARGET bsgpi)
  list(APPEND BSGP_INSTALLED_TOOLS bsgpi)
endif()
if(TARGET bsgp-lsp)
  list(APPEND BSGP_INSTALLED_TOOLS bsgp-lsp)
endif()
install(TARGETS ${BSGP_INSTALLED_TOOLS} RUNTIME DESTINATION ${BSGP_INSTALL_BINDIR})

install(EXPORT BSGPTargets NAMESPACE BSGP:: DESTINATION ${BSGP_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/BSGPConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/BSGPConfig.cmake
  INSTALL_DESTINATION ${BSGP_INSTALL_CMAKEDIR}
  PATH_VARS BSGP_INSTALL_BINDIR BSGP_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/BSGPConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/BSGPConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/BSGPConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/modules/CMakeDetermineBSGPCompiler.cmake
  ${PROJECT_SOURCE_DIR}/cmake/modules/CMakeBSGPCompiler.cmake.in
  ${PROJECT_SOURCE_DIR}/cmake/modules/CMakeBSGPInformation.cmake
  ${PROJECT_SOURCE_DIR}/cmake/modules/CMakeTestBSGPCompiler.cmake
  DESTINATION ${BSGP_INSTALL_CMAKEDIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/bsgprt.pc.in
  ${PROJECT_BINARY_DIR}/lib/pkgconfig/bsgprt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lib/pkgconfig/bsgprt.pc
  DESTINATION ${BSGP_INSTALL_LIBDIR}/pkgconfig)

# Installed compressed, as Debian's policy and lintian want manual pages
# (gzip -n: no name or time stamp, so the file is the same in every build).
find_program(BSGP_GZIP gzip REQUIRED)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/share/man/man1/bsgpc.1.gz
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/share/man/man1
  COMMAND ${BSGP_GZIP} -9n -c ${PROJECT_SOURCE_DIR}/docs/man/bsgpc.1
          > ${PROJECT_BINARY_DIR}/share/man/man1/bsgpc.1.gz
  DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/bsgpc.1
  COMMENT "Compressing the manual page")
add_custom_target(bsgp-man ALL
  DEPENDS ${PROJECT_BINARY_DIR}/share/man/man1/bsgpc.1.gz)
install(FILES ${PROJECT_BINARY_DIR}/share/man/man1/bsgpc.1.gz
  DESTINATION share/man/man1)

# CPack: `cpack -G DEB` in the build folder writes bsgpc_<version>_amd64.deb
# for /usr, depending on Debian's LLVM/MLIR 22 runtime packages (bsgpc links
# libLLVM, libMLIR and libclang-cpp, and links programs through clang-22).
set(CPACK_PACKAGE_NAME bsgpc)
set(CPACK_PACKAGE_VENDOR "The bsgpc developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Compiler for BSGP, bulk-synchronous GPU programming (CPU, CUDA, Vulkan)")
set(CPACK_PACKAGE_CONTACT "bsgpc developers <bsgpc@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libllvm22, libmlir-22, libclang-cpp22, clang-22, libomp-22-dev, libffi8, libstdc++6, libc6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers, libvulkan1")
include(CPack)
