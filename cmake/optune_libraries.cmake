# liboptune.a (target optune, exported as optune::optune_static) and
# liboptune.so (target optune_shared, exported as optune::optune), both made
# from the objects of optune_objects, so every source compiles once, and the
# blob of cubins embedded at build time (optune_cubins, empty without them).
#
# The public headers include neither CL/cl.h nor cuda.h, so a user of the
# shared library needs no OpenCL headers: it links OpenCL, SQLite, libdl,
# the threads library and libm itself, and `gcc prog.c -loptune` links.
# The static library carries the same as link-only dependencies (an archive
# cannot link), which optuneConfig.cmake finds and optune.pc lists in
# Libs.private. In the build tree the static library keeps OpenCL public and
# the configuration defines, which the tool and the tests (users of src/ and
# of OpenCL themselves) rely on.

include(GNUInstallDirs)

set(OPTUNE_PRIVATE_LINK SQLite::SQLite3 Threads::Threads ${CMAKE_DL_LIBS} m)

add_library(optune STATIC $<TARGET_OBJECTS:optune_objects> $<TARGET_OBJECTS:optune_cubins>)
add_library(optune_shared SHARED $<TARGET_OBJECTS:optune_objects> $<TARGET_OBJECTS:optune_cubins>)
foreach(lib optune optune_shared)
  target_include_directories(${lib} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${lib} PUBLIC cxx_std_20)
endforeach()

target_link_libraries(optune PUBLIC OpenCL::OpenCL PRIVATE ${OPTUNE_PRIVATE_LINK})
target_compile_definitions(optune PUBLIC $<BUILD_INTERFACE:CL_TARGET_OPENCL_VERSION=300>)
if(OPTUNE_WITH_CUDA)
  target_compile_definitions(optune PUBLIC $<BUILD_INTERFACE:OPTUNE_WITH_CUDA=1>)
endif()
set_target_properties(optune PROPERTIES EXPORT_NAME optune_static)

target_link_libraries(optune_shared PRIVATE OpenCL::OpenCL ${OPTUNE_PRIVATE_LINK})
# Every symbol the objects define stays visible (the default): the C and C++
# APIs are the whole interface and there is no version script yet.
set_target_properties(optune_shared PROPERTIES
  OUTPUT_NAME optune
  EXPORT_NAME optune
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  # A user of the shared library must not need a symbol from another library
  # that it did not name: prove at link time that liboptune.so names them all.
  LINK_OPTIONS "LINKER:--no-undefined")

# The same names for a project that adds optune with add_subdirectory as for
# one that finds it installed.
add_library(optune::optune ALIAS optune_shared)
add_library(optune::optune_static ALIAS optune)
