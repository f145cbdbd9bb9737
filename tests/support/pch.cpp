// The translation unit that builds the test programs' precompiled header
// (tests/CMakeLists.txt: optune_test_pch); it has no code of its own.
