// SourceStats fields listed once (core/sources/source_stats_fields.h): the table covers every
// field in order, the visitor walks them, and operator+= saturates.
#include <QTest>

#include <limits>
#include <string>

#include "core/sources/source_stats_fields.h"
#include "tests/test_main.h"

using namespace hitcounter;

class TestSourceStatsFields : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFieldIsListedOnceInOrder() {
        static_assert(sizeof(SourceStats) == kSourceStatsFields.size() * sizeof(std::uint64_t),
                      "a SourceStats field is missing from kSourceStatsFields");
        SourceStats s;
        std::uint64_t next = 1;
        for (const SourceStatsField& field : kSourceStatsFields) {
            s.*field.member = next++;
        }
        QCOMPARE(s.packets, 1u);
        QCOMPARE(s.lateHits, 7u);
        std::string json;
        std::uint64_t sum = 0;
        forEachField(s, [&](const SourceStatsField& field, std::uint64_t value) {
            json += std::string(field.json) + ' ';
            sum += value;
        });
        QCOMPARE(json, std::string("packets lines hits bad_lines ignored dropped late_hits "));
        QCOMPARE(sum, std::uint64_t{28});
    }

    void sumsSaturateInsteadOfWrapping() {
        SourceStats total;
        total.hits = std::numeric_limits<std::uint64_t>::max() - 1;
        SourceStats more;
        more.hits = 5;
        more.badLines = 2;
        total += more;
        total += more;
        QCOMPARE(total.hits, std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(total.badLines, 4u);
        QCOMPARE(total.packets, 0u);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestSourceStatsFields)
#include "tst_source_stats_fields.moc"
