// The tests of a folder's executable, by name: test_main.h's macros register each test's main()
// here, and test_suite_main.cpp runs the one asked for. Kept apart from test_main.h so that the
// executable's main() compiles without Qt Test (it is built once for every folder).
#pragma once

namespace hitcounter::test {

// A test's main(): builds its application object and runs its test object.
using TestMain = int (*)(int argc, char** argv);

// Registers `main` under `name` (called by test_main.h's macros during static initialisation);
// returns true. Two tests of one name abort the executable at start.
bool registerTest(const char* name, TestMain main);

}  // namespace hitcounter::test
