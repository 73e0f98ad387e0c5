// The error convention (docs/architecture.md, "Errors"): every exception core throws when an
// operation cannot be done is a hitcounter::Error whose what() names the place, and a problem
// in a user's text is a TextProblem whose describe() puts the place it has before the message.
#include <QTest>
#include <filesystem>
#include <type_traits>

#include "core/base/error.h"
#include "core/base/text_problem.h"
#include "core/fleet/redis_connection.h"
#include "core/io/hit_file.h"
#include "core/io/output_file.h"
#include "core/io/regular_file.h"
#include "core/sources/source.h"
#include "core/teach/teach_file.h"
#include "tests/test_main.h"

using namespace hitcounter;

static_assert(std::is_base_of_v<Error, SourceError>);
static_assert(std::is_base_of_v<Error, HitFileError>);
static_assert(std::is_base_of_v<Error, RegularFileError>);
static_assert(std::is_base_of_v<Error, OutputFileError>);
static_assert(std::is_base_of_v<Error, teach::TeachFileError>);
static_assert(std::is_base_of_v<Error, fleet::RedisError>);

class TestErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void describeNamesTheLineAndColumnItHas() {
        QCOMPARE(TextProblem({3, 5, "expected a second after 'hit'"}).describe(),
                 std::string("line 3, column 5: expected a second after 'hit'"));
        QCOMPARE(TextProblem({3, 0, "SyntaxError: Expected token `;'"}).describe(),
                 std::string("line 3: SyntaxError: Expected token `;'"));
        QCOMPARE(TextProblem({0, 0, "'compare=<': compare is > or >="}).describe(),
                 std::string("'compare=<': compare is > or >="));
        QCOMPARE(TextProblem({5'000'000'000, 7, "x"}).describe(),
                 std::string("line 5000000000, column 7: x"));
    }

    // One catch handles every module's failure, and what() names the file.
    void catchingErrorCatchesEachModulesFailure() {
        const std::filesystem::path missing =
            std::filesystem::temp_directory_path() / "hitcounter-tst-errors-missing.csv";
        std::filesystem::remove(missing);
        const auto whatOf = [](const auto& operation) -> std::string {
            try {
                operation();
            } catch (const Error& e) {
                return e.what();
            }
            return "(nothing thrown)";
        };
        const std::string name = missing.string();
        const std::string hitFile = whatOf([&] { HitFile file(missing, {}); });
        const std::string teachFile = whatOf([&] { teach::readTeachFile(missing); });
        const std::string output =
            whatOf([] { OutputFile out(std::filesystem::temp_directory_path()); });
        QVERIFY2(hitFile.find(name) != std::string::npos, hitFile.c_str());
        QVERIFY2(teachFile.find(name) != std::string::npos, teachFile.c_str());
        QVERIFY2(output.find(std::filesystem::temp_directory_path().string()) != std::string::npos,
                 output.c_str());
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestErrors)
#include "tst_errors.moc"
