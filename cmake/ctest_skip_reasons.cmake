# CTest's post-test step (CTestCustom.cmake): prints why each test of this run
# was skipped, from the files tests/support/run_or_skip.sh wrote. Never fails.
file(GLOB reasons "${DIR}/*.txt")
if(reasons)
  message("Skipped tests and why:")
  foreach(f IN LISTS reasons)
    get_filename_component(name "${f}" NAME_WE)
    file(STRINGS "${f}" lines)
    foreach(line IN LISTS lines)
      message("  ${name}: ${line}")
    endforeach()
  endforeach()
endif()
