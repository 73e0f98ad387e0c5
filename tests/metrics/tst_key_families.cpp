// The per-key families built from HotKeyWindows' rows (core/metrics/key_families.h).
#include <QTest>

#include "core/metrics/key_families.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::metrics;
using namespace std::chrono_literals;

class KeyFamiliesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyRowGivesATotalAndOneSamplePerWindowThenOther() {
        const std::vector<KeyWindowRow> rows{{"a", 5, {1, 2, 5}, std::nullopt},
                                             {"b", 3, {0, 3, 3}, 2}};
        const KeyWindowRow other{"__other__", 7, {1, 1, 7}, std::nullopt};
        const std::vector<std::chrono::seconds> windows{60s, 300s, 3600s};
        const auto families = keyFamilies(rows, other, windows, 300s);
        QCOMPARE(families.size(), std::size_t{3});
        QCOMPARE(families[0].name, std::string("hitcounter_hits"));
        QCOMPARE(families[0].type, MetricType::Counter);
        QCOMPARE(families[0].samples.size(), std::size_t{3});
        QCOMPARE(families[0].samples[2], (Sample{{{"key", "__other__"}}, Count{7}}));
        QCOMPARE(families[1].name, std::string("hitcounter_window_hits"));
        QCOMPARE(families[1].samples.size(), std::size_t{9});
        QCOMPARE(families[1].samples[4], (Sample{{{"key", "b"}, {"window", "300"}}, Count{3}}));
        QCOMPARE(families[1].samples[8],
                 (Sample{{{"key", "__other__"}, {"window", "3600"}}, Count{7}}));
        // Uniques only where visitors are known.
        QCOMPARE(families[2].name, std::string("hitcounter_window_uniques"));
        QCOMPARE(families[2].samples.size(), std::size_t{1});
        QCOMPARE(families[2].samples[0], (Sample{{{"key", "b"}, {"window", "300"}}, Count{2}}));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(KeyFamiliesTest)
#include "tst_key_families.moc"
