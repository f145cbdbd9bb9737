// The program that builds the test programs' precompiled header
// (tests/CMakeLists.txt: optune_test_pch); it does nothing.
int main() { return 0; }
