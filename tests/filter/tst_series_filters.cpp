// SeriesFilters: each hit's mask against the filters asked one by one, equal expressions
// sharing a bit, the limit of 16, and the field a source lacks named.
#include <QTest>

#include "core/filter/series_filters.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

RecordFilter parsed(std::string_view text) {
    return std::move(std::get<RecordFilter>(RecordFilter::parse(text)));
}

FilterRecord line(std::string_view status, std::string_view path) {
    FilterRecord r;
    r.status = status;
    r.path = path;
    return r;
}

}  // namespace

class SeriesFiltersTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachFilterSetsItsOwnBit() {
        SeriesFilters series;
        QCOMPARE(series.add(parsed("status=5xx")), std::size_t(0));
        QCOMPARE(series.add(parsed("path~'^/api/'")), std::size_t(1));
        QCOMPARE(series.add(parsed("not status=200")), std::size_t(2));
        QCOMPARE(series.mask(line("503", "/api/a")), SeriesMask(0b111));
        QCOMPARE(series.mask(line("200", "/api/a")), SeriesMask(0b010));
        QCOMPARE(series.mask(line("404", "/index")), SeriesMask(0b100));
        QCOMPARE(series.mask(line("200", "/")), SeriesMask(0));
    }

    void anEqualExpressionKeepsItsIndex() {
        SeriesFilters series;
        series.add(parsed("status=404"));
        QCOMPARE(series.add(parsed("status=5xx")), std::size_t(1));
        QCOMPARE(series.add(parsed("status=404")), std::size_t(0));
        QCOMPARE(series.size(), std::size_t(2));
    }

    void sixteenFiltersAtMost() {
        SeriesFilters series;
        for (int i = 0; i < 16; ++i)
            series.add(parsed("path=/" + std::to_string(i)));
        QCOMPARE(series.mask(line("200", "/15")), SeriesMask(1u << 15));
        QVERIFY_THROWS_EXCEPTION(std::length_error, series.add(parsed("path=/16")));
        QCOMPARE(series.add(parsed("path=/3")), std::size_t(3));  // not a new one
    }

    void aFieldTheLinesLackIsNamed() {
        SeriesFilters series;
        series.add(parsed("name=a"));
        series.add(parsed("status=5xx"));
        QVERIFY(
            !series.missingField({FilterField::Name, FilterField::Status}, "lines").has_value());
        const auto missing = series.missingField({FilterField::Name}, "graphite lines");
        QVERIFY(missing.has_value());
        QVERIFY2(missing->starts_with("filter 'status=5xx': column 1: ") &&
                     missing->find("graphite lines") != std::string::npos,
                 missing->c_str());
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(SeriesFiltersTest)
#include "tst_series_filters.moc"
