// hitcounter-cli teach --code FILE.js: the learner's JavaScript counter checked against
// RingCounter headless, for autograding (issue 24). The JSON shape is in docs/cli.md.
//
// Main thread only (the engine runs on the caller's thread).
//
// Exit code: 0 when the counter agrees everywhere (a performance mistake is still named in
// "mistake"), 1 when an answer differs or a call throws or is stopped (a runaway loop, too much
// memory), 2 when the file cannot be read or does not compile (the message names the line).
#pragma once

#include <QString>
#include <chrono>
#include <cstdint>
#include <vector>

#include "core/teach/operation_parser.h"

namespace hitcounter::cli {

struct CodeCheckRequest {
    QString file;  // "-" for stdin
    std::chrono::seconds window{300};
    std::uint64_t seed = 1;
    std::vector<teach::Operation> lesson;  // --lesson: its operations run first
    bool json = false;
};

int runCodeCheck(const CodeCheckRequest& request);

}  // namespace hitcounter::cli
