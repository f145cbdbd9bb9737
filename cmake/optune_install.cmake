# Install rules, the CMake package, optune.pc and the Debian package.
#
#   cmake --install build/release --prefix /opt/optune
#   find_package(optune CONFIG)   ->  optune::optune (shared), optune::optune_static
#   pkg-config --cflags --libs optune
#   cd build/release && cpack -G DEB
include(CMakePackageConfigHelpers)

set(OPTUNE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/optune)

install(DIRECTORY include/optune DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS optune_shared EXPORT optuneTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS optune EXPORT optuneStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS optune_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The shipped tuning results are embedded in the library; the JSON goes along
# for `optune db import` and for reading.
install(FILES ${OPTUNE_DATABASE_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/optune/database)

# Two export sets: the shared library's needs nothing found (it links its own
# dependencies), the static library's needs OpenCL, SQLite3 and Threads,
# which optuneConfig.cmake looks for only then (components shared, static).
install(EXPORT optuneTargets NAMESPACE optune:: DESTINATION ${OPTUNE_CMAKE_DIR})
install(EXPORT optuneStaticTargets NAMESPACE optune:: DESTINATION ${OPTUNE_CMAKE_DIR})
configure_package_config_file(cmake/optuneConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/generated/optuneConfig.cmake
  INSTALL_DESTINATION ${OPTUNE_CMAKE_DIR})
# 0.x: a minor release may break the interface, so only the same minor matches.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/generated/optuneConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/generated/optuneConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/generated/optuneConfigVersion.cmake
        DESTINATION ${OPTUNE_CMAKE_DIR})

# pkg-config: the prefix is written at install time (the --prefix of
# `cmake --install`, /usr in the Debian package), not as ${pcfiledir}/../..:
# pkg-config drops -I/usr/include only when spelled so, and a -I that is
# /usr/include in disguise breaks the C++ headers' #include_next.
set(OPTUNE_PC_LIBS_PRIVATE "-lOpenCL -lsqlite3")
# Plain -l flags rather than Requires.private, which pkg-config insists on
# finding even for a shared-library user (OpenCL.pc comes with the -dev package).
foreach(lib IN LISTS CMAKE_DL_LIBS CMAKE_THREAD_LIBS_INIT)
  string(REGEX REPLACE "^-l" "" lib "${lib}")
  string(APPEND OPTUNE_PC_LIBS_PRIVATE " -l${lib}")
endforeach()
string(APPEND OPTUNE_PC_LIBS_PRIVATE " -lstdc++ -lm")
set(OPTUNE_PC_PREFIX "@OPTUNE_PC_PREFIX@")  # kept for the install step
configure_file(cmake/optune.pc.in ${CMAKE_CURRENT_BINARY_DIR}/generated/optune.pc.in @ONLY)
install(CODE "
  set(OPTUNE_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${CMAKE_CURRENT_BINARY_DIR}/generated/optune.pc.in\"
                 \"${CMAKE_CURRENT_BINARY_DIR}/generated/install/optune.pc\" @ONLY)")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/generated/install/optune.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- Debian package: cpack -G DEB in the build folder ----
set(CPACK_PACKAGE_NAME optune)
set(CPACK_PACKAGE_VENDOR "optune")
set(CPACK_PACKAGE_CONTACT "optune maintainers <optune@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU operators on OpenCL and CUDA, tuned per device")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# Depends: dpkg-shlibdeps reads them off the binaries, with versions (libc6,
# libgcc-s1, libstdc++6, libsqlite3-0, ocl-icd-libopencl1 | libopencl1); an
# ICD to run on is only recommended (PoCL for the CPU, or the GPU vendor's),
# and the -dev packages a static or OpenCL-using consumer needs are suggested.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
if(OPTUNE_WITH_PYTHON)  # the Python module (python/) imports numpy
  string(APPEND CPACK_DEBIAN_PACKAGE_RECOMMENDS ", python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ocl-icd-opencl-dev, libsqlite3-dev, pkg-config, cmake")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_GENERATOR DEB)
include(CPack)
