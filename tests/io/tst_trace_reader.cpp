// TraceReader: the trace CSV grammar, every error kind with its line number, and streaming in
// chunks (the same rows whatever the chunk size, bounded memory for overlong lines).
#include <QTest>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/io/trace_reader.h"
#include "tests/test_main.h"

using namespace hitcounter;

Q_DECLARE_METATYPE(hitcounter::TraceErrorKind)

namespace {

struct Outcome {
    std::vector<TraceRow> rows;
    std::vector<TraceError> errors;
    TraceProgress progress;
};

Outcome readAll(TraceReader& reader) {
    Outcome outcome;
    TraceRow row;
    for (TraceStatus status; (status = reader.next(row)) != TraceStatus::End;) {
        if (status == TraceStatus::Row)
            outcome.rows.push_back(row);
        else
            outcome.errors.push_back(reader.error());
    }
    outcome.progress = reader.progress();
    return outcome;
}

Outcome readBuffer(const std::string& text) {
    TraceReader reader{std::string_view(text)};
    return readAll(reader);
}

Outcome readStream(const std::string& text, std::size_t chunkBytes) {
    std::istringstream in(text);
    TraceReader reader(in, chunkBytes);
    return readAll(reader);
}

}  // namespace

class TestTraceReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsEveryColumnOfTheSharedExample() {
        const QString path = qEnvironmentVariable("HITCOUNTER_TESTDATA") + "/example_trace.csv";
        std::ifstream in(path.toStdString());
        QVERIFY2(in.good(), qPrintable(path));
        TraceReader reader(in);
        const auto outcome = readAll(reader);
        QVERIFY(outcome.errors.empty());
        QCOMPARE(outcome.rows.size(), std::size_t{4});
        QCOMPARE(outcome.rows[0].event, (HitEvent{1, "home", "u1", 1}));
        QCOMPARE(outcome.rows[0].line, std::uint64_t{3});
        QCOMPARE(outcome.rows[3].event, (HitEvent{300, "home", "u3", 1}));
        QVERIFY(reader.columns() == (TraceColumns{true, true, false}));
    }

    void columnsMayComeInAnyOrderAndUnknownOnesAreIgnored() {
        const auto outcome = readBuffer("Count, extra ,TIMESTAMP,visitor\n3,zz,10,bob\n");
        QVERIFY(outcome.errors.empty());
        QCOMPARE(outcome.rows.size(), std::size_t{1});
        QCOMPARE(outcome.rows[0].event, (HitEvent{10, "", "bob", 3}));
    }

    void fractionsAreFlooredToTheSecond() {
        const auto outcome = readBuffer("timestamp\n7.999\n8.0\n9.5\n");
        QCOMPARE(outcome.rows.size(), std::size_t{3});
        QCOMPARE(outcome.rows[0].event.time, Timestamp{7});
        QCOMPARE(outcome.rows[1].event.time, Timestamp{8});
        QCOMPARE(outcome.rows[2].event.time, Timestamp{9});
    }

    void commentsBlankLinesCarriageReturnsAndBomAreSkipped() {
        const auto outcome = readBuffer(
            "\xEF\xBB\xBF# recorded by hand\r\n\r\ntimestamp,key\r\n  # indented\r\n"
            "\t\r\n 4 , a b \r\n5,c\n");
        QVERIFY(outcome.errors.empty());
        QCOMPARE(outcome.rows.size(), std::size_t{2});
        QCOMPARE(outcome.rows[0].event, (HitEvent{4, "a b", "", 1}));
        QCOMPARE(outcome.rows[0].line, std::uint64_t{6});
        QCOMPARE(outcome.rows[1].event, (HitEvent{5, "c", "", 1}));
        QCOMPARE(outcome.rows[1].line, std::uint64_t{7});
        QCOMPARE(outcome.progress.lines, std::uint64_t{7});
    }

    void aLastRowWithoutALineBreakIsIncompleteNotASmallerCount() {
        // A full disk cut "12345" to "12": the row must not read as 12 hits.
        const std::string text = "timestamp,key,count\n1796102325,kk,3\n1796102326,kk,12";
        for (const auto& outcome : {readBuffer(text), readStream(text, 5)}) {
            QCOMPARE(outcome.rows.size(), std::size_t{1});
            QCOMPARE(outcome.rows[0].event.count, Count{3});
            QCOMPARE(outcome.errors.size(), std::size_t{1});
            QCOMPARE(outcome.errors[0].kind, TraceErrorKind::IncompleteRow);
            QCOMPARE(outcome.errors[0].line, std::uint64_t{3});
            QVERIFY(!outcome.errors[0].fatal);
            QVERIFY2(QString::fromStdString(outcome.errors[0].message).contains("no line break"),
                     outcome.errors[0].message.c_str());
            QCOMPARE(outcome.progress.badRows, std::uint64_t{1});
        }
        // A header, comment or blank last line without a line break is no row to lose.
        for (const std::string complete :
             {"timestamp,key", "timestamp\n1\n# end", "timestamp\n1\n  "}) {
            const auto outcome = readBuffer(complete);
            QVERIFY2(outcome.errors.empty(), complete.c_str());
        }
    }

    void crOnlyLineBreaksAreAFatalErrorNotAnEmptyTrace() {
        const std::string shortTrace = "timestamp,key\r1,a\r2,b\r";
        std::string longTrace = "timestamp,key\r";
        while (longTrace.size() < 3 * TraceReader::kMaxLineBytes)
            longTrace += "1700000000,some-key\r";
        for (const auto& text : {shortTrace, longTrace}) {
            for (const auto& outcome : {readBuffer(text), readStream(text, 1000)}) {
                QVERIFY(outcome.rows.empty());
                QCOMPARE(outcome.errors.size(), std::size_t{1});
                QVERIFY(outcome.errors[0].fatal);
                QCOMPARE(outcome.errors[0].line, std::uint64_t{1});
                QVERIFY2(QString::fromStdString(outcome.errors[0].message).contains("CR-only"),
                         outcome.errors[0].message.c_str());
            }
        }
        QCOMPARE(readBuffer(shortTrace).errors[0].kind, TraceErrorKind::CarriageReturn);
        QCOMPARE(readBuffer(longTrace).errors[0].kind, TraceErrorKind::LineTooLong);
    }

    void aCarriageReturnInsideARowIsABadRow() {
        const auto outcome = readBuffer("timestamp,key\r\n1,a\rb\r\n2,c\r\n");
        QCOMPARE(outcome.rows.size(), std::size_t{1});
        QCOMPARE(outcome.errors.size(), std::size_t{1});
        QCOMPARE(outcome.errors[0].kind, TraceErrorKind::CarriageReturn);
        QCOMPARE(outcome.errors[0].line, std::uint64_t{2});
        QVERIFY(!outcome.errors[0].fatal);
    }

    void anEmptyInputIsAnEmptyTrace() {
        for (const std::string text : {"", "\n\n", "# only a comment\n"}) {
            const auto outcome = readBuffer(text);
            QVERIFY(outcome.rows.empty());
            QVERIFY(outcome.errors.empty());
            QCOMPARE(outcome.progress.bytesRead, std::uint64_t(text.size()));
        }
    }

    void aHeaderWithoutRowsHasNoRows() {
        TraceReader reader{std::string_view("timestamp,key\n")};
        const auto outcome = readAll(reader);
        QVERIFY(outcome.rows.empty());
        QVERIFY(outcome.errors.empty());
        QVERIFY(reader.hasHeader());
    }

    void largestValuesAreAccepted() {
        const auto outcome =
            readBuffer("timestamp,count\n4611686018427387903,18446744073709551615\n");
        QVERIFY(outcome.errors.empty());
        QCOMPARE(outcome.rows[0].event.time, kTraceMaxTimestamp);
        QCOMPARE(outcome.rows[0].event.count, ~Count{0});
    }

    void badRowIsReportedWithItsLineAndKind_data() {
        QTest::addColumn<QString>("row");
        QTest::addColumn<TraceErrorKind>("kind");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("short row") << "5,a" << TraceErrorKind::ShortRow << "expected 3";
        QTest::newRow("long row") << "5,a,2,x" << TraceErrorKind::LongRow << "expected 3";
        QTest::newRow("empty timestamp") << " ,a,1" << TraceErrorKind::MissingTimestamp << "empty";
        QTest::newRow("word") << "abc,a,1" << TraceErrorKind::NonNumericTimestamp << "'abc'";
        QTest::newRow("exponent") << "1e9,a,1" << TraceErrorKind::NonNumericTimestamp << "'1e9'";
        QTest::newRow("dot only") << "5.,a,1" << TraceErrorKind::NonNumericTimestamp << "'5.'";
        QTest::newRow("leading dot") << ".5,a,1" << TraceErrorKind::NonNumericTimestamp << "'.5'";
        QTest::newRow("plus sign") << "+5,a,1" << TraceErrorKind::NonNumericTimestamp << "'+5'";
        QTest::newRow("negative") << "-5,a,1" << TraceErrorKind::NegativeTimestamp << "negative";
        QTest::newRow("negative fraction")
            << "-0.5,a,1" << TraceErrorKind::NegativeTimestamp << "negative";
        QTest::newRow("above 2^62")
            << "4611686018427387904,a,1" << TraceErrorKind::TimestampTooLarge << "at most";
        QTest::newRow("above 2^64")
            << "99999999999999999999999,a,1" << TraceErrorKind::TimestampTooLarge << "at most";
        QTest::newRow("zero count") << "5,a,0" << TraceErrorKind::BadCount << ">= 1";
        QTest::newRow("empty count") << "5,a," << TraceErrorKind::BadCount << ">= 1";
        QTest::newRow("fractional count") << "5,a,1.5" << TraceErrorKind::BadCount << "'1.5'";
        QTest::newRow("negative count") << "5,a,-1" << TraceErrorKind::BadCount << "'-1'";
        QTest::newRow("count above 2^64")
            << "5,a,18446744073709551616" << TraceErrorKind::CountTooLarge << "at most";
    }
    void badRowIsReportedWithItsLineAndKind() {
        QFETCH(QString, row);
        QFETCH(TraceErrorKind, kind);
        QFETCH(QString, mentions);
        const auto outcome = readBuffer("# header next\ntimestamp,key,count\n1,a,1\n\n" +
                                        row.toStdString() + "\n2,b,1\n");
        QCOMPARE(outcome.errors.size(), std::size_t{1});
        QCOMPARE(outcome.errors[0].kind, kind);
        QCOMPARE(outcome.errors[0].line, std::uint64_t{5});
        QVERIFY(!outcome.errors[0].fatal);
        QVERIFY2(QString::fromStdString(outcome.errors[0].message).contains(mentions),
                 outcome.errors[0].message.c_str());
        // The rows around the bad one are still read.
        QCOMPARE(outcome.rows.size(), std::size_t{2});
        QCOMPARE(outcome.rows[1].line, std::uint64_t{6});
        QCOMPARE(outcome.progress.badRows, std::uint64_t{1});
    }

    void aHeaderWithoutTimestampIsFatal() {
        const auto outcome = readBuffer("# c\n1,2,3\n4,5,6\n");
        QCOMPARE(outcome.errors.size(), std::size_t{1});
        QCOMPARE(outcome.errors[0].kind, TraceErrorKind::MissingTimestampColumn);
        QCOMPARE(outcome.errors[0].line, std::uint64_t{2});
        QVERIFY(outcome.errors[0].fatal);
        QVERIFY(outcome.rows.empty());
    }

    void aDuplicateColumnIsFatal() {
        const auto outcome = readBuffer("timestamp,key,Key\n1,a,b\n");
        QCOMPARE(outcome.errors.size(), std::size_t{1});
        QCOMPARE(outcome.errors[0].kind, TraceErrorKind::DuplicateColumn);
        QVERIFY(outcome.errors[0].fatal);
        QVERIFY(outcome.rows.empty());
    }

    void anOverlongLineIsSkippedWithoutBeingHeld() {
        const std::string longLine(3 * TraceReader::kMaxLineBytes, '7');
        const std::string text = "timestamp\n1\n" + longLine + "\n2\n" + longLine;
        for (const std::size_t chunk : {std::size_t{1000}, TraceReader::kDefaultChunkBytes}) {
            const auto outcome = readStream(text, chunk);
            QCOMPARE(outcome.errors.size(), std::size_t{2});
            QCOMPARE(outcome.errors[0].kind, TraceErrorKind::LineTooLong);
            QCOMPARE(outcome.errors[0].line, std::uint64_t{3});
            QCOMPARE(outcome.errors[1].line, std::uint64_t{5});
            QCOMPARE(outcome.rows.size(), std::size_t{2});
            QCOMPARE(outcome.rows[1].event.time, Timestamp{2});
            QCOMPARE(outcome.progress.bytesRead, std::uint64_t(text.size()));
        }
        QCOMPARE(readBuffer(text).errors.size(), std::size_t{2});
    }

    void everyChunkSizeGivesTheSameRowsAndErrors() {
        std::mt19937 rng(7);
        std::string text = "timestamp,key,visitor,count\n";
        for (int i = 0; i < 400; ++i) {
            const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
            if (kind == 0)
                text += "# comment " + std::to_string(i) + "\n";
            else if (kind == 1)
                text += "x" + std::to_string(i) + ",k,v,1\n";
            else
                text += std::to_string(i) + "." + std::to_string(i % 10) + ",key" +
                        std::to_string(i % 7) + ",v" + std::to_string(i % 3) + "," +
                        std::to_string(1 + i % 4) + (i % 5 == 0 ? "\r\n" : "\n");
        }
        const auto whole = readBuffer(text);
        QVERIFY(whole.rows.size() > 300);
        QVERIFY(!whole.errors.empty());
        for (const std::size_t chunk : {1, 2, 3, 7, 64, 1000}) {
            const auto streamed = readStream(text, chunk);
            QCOMPARE(streamed.rows.size(), whole.rows.size());
            for (std::size_t i = 0; i < whole.rows.size(); ++i) {
                QCOMPARE(streamed.rows[i].event, whole.rows[i].event);
                QCOMPARE(streamed.rows[i].line, whole.rows[i].line);
            }
            QCOMPARE(streamed.errors.size(), whole.errors.size());
            for (std::size_t i = 0; i < whole.errors.size(); ++i)
                QCOMPARE(streamed.errors[i].line, whole.errors[i].line);
            QCOMPARE(streamed.progress.bytesRead, std::uint64_t(text.size()));
            QCOMPARE(streamed.progress.lines, whole.progress.lines);
        }
    }

    void arbitraryBytesEndWithEveryByteAccountedFor() {
        // Random bytes biased towards the grammar's characters: the reader ends, consumes
        // every byte (up to a fatal header error, where it stops), and every line is a row, a
        // bad row, a comment, blank, or the header; chunked reading agrees.
        const std::string alphabet = "0123456789.,-#\n\r \ttimestampkeycount\xEF\xBB\xBFx";
        std::mt19937 rng(11);
        for (int round = 0; round < 300; ++round) {
            std::string text;
            const int length = std::uniform_int_distribution<int>(0, 400)(rng);
            for (int i = 0; i < length; ++i)
                text += alphabet[std::uniform_int_distribution<std::size_t>(
                    0, alphabet.size() - 1)(rng)];
            if (round % 2 == 0)
                text = "timestamp,key,count\n" + text;
            const auto whole = readBuffer(text);
            const auto streamed = readStream(text, 5);
            const bool stopped = !whole.errors.empty() && whole.errors.back().fatal;
            if (!stopped)
                QCOMPARE(whole.progress.bytesRead, std::uint64_t(text.size()));
            QCOMPARE(streamed.progress.bytesRead, whole.progress.bytesRead);
            QCOMPARE(streamed.rows.size(), whole.rows.size());
            QCOMPARE(streamed.errors.size(), whole.errors.size());
            QVERIFY(whole.rows.size() + whole.errors.size() <= whole.progress.lines);
            for (const auto& row : whole.rows)
                QVERIFY(row.event.time >= 0 && row.event.count >= 1);
        }
    }

    void progressCountsBytesLinesRowsAndBadRows() {
        TraceReader reader{std::string_view("timestamp,count\n5,2\nx,1\n7.9,1\n")};
        TraceRow row;
        QCOMPARE(reader.next(row), TraceStatus::Row);
        QCOMPARE(reader.progress().bytesRead, std::uint64_t{20});
        QCOMPARE(reader.next(row), TraceStatus::BadRow);
        QCOMPARE(reader.error().kind, TraceErrorKind::NonNumericTimestamp);
        QCOMPARE(reader.next(row), TraceStatus::Row);
        QCOMPARE(row.event.time, Timestamp{7});
        QCOMPARE(reader.next(row), TraceStatus::End);
        QCOMPARE(reader.next(row), TraceStatus::End);
        const auto progress = reader.progress();
        QCOMPARE(progress.bytesRead, std::uint64_t{30});
        QCOMPARE(progress.lines, std::uint64_t{4});
        QCOMPARE(progress.rows, std::uint64_t{2});
        QCOMPARE(progress.badRows, std::uint64_t{1});
    }

    void aLongStreamIsReadAheadByAtMostOneChunk() {
        // 8 MB of whole rows served on demand: the reader never holds more than a chunk beyond the
        // rows it has returned, so a 1 GB file streams in the same memory.
        struct RowSource : std::streambuf {
            std::string header = "timestamp,key,visitor\n";
            std::string line = "123456789,some-key,visitor\n";
            std::uint64_t remaining = header.size() + 300'000 * line.size();
            std::uint64_t served = 0;
            std::streamsize xsgetn(char* s, std::streamsize n) override {
                std::streamsize given = 0;
                for (; given < n && remaining > 0; ++given, --remaining, ++served)
                    *s++ = served < header.size() ? header[served]
                                                  : line[(served - header.size()) % line.size()];
                return given;
            }
            int_type underflow() override { return traits_type::eof(); }
        } source;
        const std::uint64_t total = source.remaining;
        std::istream in(&source);
        constexpr std::size_t kChunk = 4096;
        TraceReader reader(in, kChunk);
        TraceRow row;
        std::uint64_t rows = 0;
        std::uint64_t largestLookahead = 0;
        for (TraceStatus status; (status = reader.next(row)) != TraceStatus::End; ++rows) {
            QCOMPARE(status, TraceStatus::Row);
            largestLookahead =
                std::max(largestLookahead, source.served - reader.progress().bytesRead);
        }
        QCOMPARE(reader.progress().bytesRead, total);
        QCOMPARE(rows, (total - source.header.size()) / source.line.size());
        QVERIFY2(largestLookahead <= kChunk, std::to_string(largestLookahead).c_str());
        QCOMPARE(row.event, (HitEvent{123456789, "some-key", "visitor", 1}));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestTraceReader)
#include "tst_trace_reader.moc"
