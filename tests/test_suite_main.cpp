// The main() of each folder's test executable (tests/CMakeLists.txt, compiled once for all of
// them): runs the one registered test (test_main.h) named by the name it was started as, or by
// its first argument.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/test_registry.h"

namespace hitcounter::test {

namespace {
std::map<std::string, TestMain>& registry() {
    static std::map<std::string, TestMain> tests;  // filled before main() starts
    return tests;
}
}  // namespace

bool registerTest(const char* name, TestMain main) {
    if (!registry().emplace(name, main).second) {
        std::fprintf(stderr, "two tests are named %s\n", name);
        std::abort();
    }
    return true;
}

}  // namespace hitcounter::test

int main(int argc, char** argv) {
    const auto& tests = hitcounter::test::registry();
    const std::string invokedAs = std::filesystem::path(argv[0]).filename().string();
    if (const auto it = tests.find(invokedAs); it != tests.end()) {
        return it->second(argc, argv);
    }
    if (argc >= 2) {
        if (const auto it = tests.find(argv[1]); it != tests.end()) {
            // The test sees itself started as `argv[1]`, with the options after it.
            std::vector<char*> args(argv + 1, argv + argc);
            args.push_back(nullptr);
            return it->second(argc - 1, args.data());
        }
    }
    std::fprintf(stderr, "usage: %s TEST [Qt Test options]\ntests:", invokedAs.c_str());
    for (const auto& [name, main] : tests) {
        std::fprintf(stderr, " %s", name.c_str());
    }
    std::fprintf(stderr, "\n");
    return 2;
}
