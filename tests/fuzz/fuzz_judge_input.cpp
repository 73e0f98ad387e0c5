// Fuzzes the LeetCode 362 judge input reader (app/cli/judge_input.h): any input is either a
// program that runs, with one answer per call, or an error naming a line.
#include <QJsonArray>
#include <QJsonDocument>

#include "app/cli/judge_input.h"
#include "core/counters/counter_factory.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hitcounter;
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const auto parsed = cli::parseJudgeInput(input);
    if (const auto* error = std::get_if<cli::JudgeError>(&parsed)) {
        FUZZ_CHECK(error->line >= 1 && !error->message.isEmpty());
        return 0;
    }
    const auto& program = std::get<cli::JudgeProgram>(parsed);
    auto counter = makeCounter("ring");
    const QJsonDocument answers = QJsonDocument::fromJson(cli::runJudge(program, *counter));
    FUZZ_CHECK(answers.isArray() && answers.array().size() == qsizetype(program.size()));
    return 0;
}
