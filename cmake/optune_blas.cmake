# liboptune_blas.so.3: the Fortran BLAS and CBLAS interfaces over host memory
# (src/hostblas/, docs/DESIGN.md "Host BLAS interface"), a drop-in for
# Debian's libblas.so.3. It carries optune's objects itself (so one file is
# all a program needs) and exports only the BLAS symbols (optune_blas.map).
# In the build tree, blas/ holds it with a libblas.so.3 link beside it:
#   LD_LIBRARY_PATH=build/release/blas  program
file(GLOB OPTUNE_HOSTBLAS_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/hostblas/*.cpp)
set(OPTUNE_BLAS_MAP ${CMAKE_CURRENT_SOURCE_DIR}/src/hostblas/optune_blas.map)
add_library(optune_blas SHARED ${OPTUNE_HOSTBLAS_SOURCES} $<TARGET_OBJECTS:optune_objects>
            $<TARGET_OBJECTS:optune_cubins>)
target_include_directories(optune_blas PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_compile_definitions(optune_blas PRIVATE CL_TARGET_OPENCL_VERSION=300)
target_compile_options(optune_blas PRIVATE -Wall -Wextra -Wno-unused-parameter)
target_link_libraries(optune_blas PRIVATE OpenCL::OpenCL ${OPTUNE_PRIVATE_LINK})
set_target_properties(optune_blas PROPERTIES
  OUTPUT_NAME optune_blas
  VERSION 3
  SOVERSION 3
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/blas
  LINK_DEPENDS ${OPTUNE_BLAS_MAP}
  LINK_OPTIONS "LINKER:--no-undefined;LINKER:--version-script=${OPTUNE_BLAS_MAP}")
add_custom_command(TARGET optune_blas POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E create_symlink liboptune_blas.so.3 ${CMAKE_BINARY_DIR}/blas/libblas.so.3
  VERBATIM)

include(GNUInstallDirs)
install(TARGETS optune_blas LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_SKIP)
# The link for LD_LIBRARY_PATH use: <libdir>/optune/libblas.so.3.
install(CODE "file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/optune\")
  file(CREATE_LINK ../liboptune_blas.so.3
       \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/optune/libblas.so.3\" SYMBOLIC)")

# A C program timing SGEMM and DGEMM through the CBLAS of any BLAS library
# named on its command line (bench/host_blas_gemm.c): scripts/gpu/run.sh's
# host-blas step runs it against optune's library, Debian's reference BLAS
# and OpenBLAS on the GPU machine.
add_executable(optune_host_blas_gemm bench/host_blas_gemm.c)
set_target_properties(optune_host_blas_gemm PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
target_compile_options(optune_host_blas_gemm PRIVATE -Wall -Wextra)
target_link_libraries(optune_host_blas_gemm PRIVATE ${CMAKE_DL_LIBS})
