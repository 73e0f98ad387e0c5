// Fuzzes the LeetCode 362 judge input reader (app/cli/judge_input.h): any input is either a
// answer array that is valid JSON, or an error naming a line.
#include <QJsonArray>
#include <QJsonDocument>
#include <sstream>

#include "app/cli/judge_input.h"
#include "core/counters/counter_factory.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hitcounter;
    std::istringstream input(std::string(reinterpret_cast<const char*>(data), size));
    auto counter = makeCounter("ring");
    const auto answers = cli::runJudge(input, *counter);
    if (const auto* error = std::get_if<cli::JudgeError>(&answers)) {
        FUZZ_CHECK(error->line >= 1 && !error->message.isEmpty());
        return 0;
    }
    const auto& text = std::get<std::string>(answers);
    const QJsonDocument parsed =
        QJsonDocument::fromJson(QByteArray(text.data(), qsizetype(text.size())));
    FUZZ_CHECK(parsed.isArray() && !parsed.array().isEmpty());
    return 0;
}
