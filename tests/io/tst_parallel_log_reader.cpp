// ParallelLogReader against AccessLogReader, call by call, on the same inputs: a real Combined
// log no one here wrote (logstalgia's example) with what real logs also hold (blank lines,
// CRLF, garbage, a line past 64 KiB, a last line cut off), a filter, JSON lines whose times
// have an offset or none, skipToLine; with 2, 3 and 8 threads and batches from one byte (a
// batch per line) to the default. Every status, row, bad row (line, kind, message),
// progress() and utcOffset() must be the same. And through HitFile: a gzip log, and one cut
// short (the truncation found at the same line), parsed on several threads.
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <sstream>
#include <string>

#include "core/filter/record_filter.h"
#include "core/io/access_log_reader.h"
#include "core/io/hit_file.h"
#include "core/io/log_format.h"
#include "core/io/parallel_log_reader.h"
#include "tests/app/real_log.h"
#include "tests/io/gzip_writer.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

// The real log with, every so often, what real logs also hold.
std::string decoratedRealLog() {
    const QList<QByteArray> lines = testing::linesOf(testing::readAll(testing::kRealLog));
    std::string text;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        text += lines[i].toStdString();
        text += i % 17 == 0 ? "\r\n" : "\n";
        if (i % 101 == 0)
            text += "\n   \t\n";
        if (i % 257 == 0)
            text += "not a log line at all\n";
        if (i == 1000)
            text += std::string(70 * 1024, 'x') + "\n";  // past kMaxLogLineBytes
    }
    return text + lines.front().toStdString();  // the last line without its '\n'
}

// JSON lines: times with an offset, in epoch seconds (no offset) and bad ones.
std::string jsonLog() {
    std::string text;
    for (int i = 0; i < 3000; ++i) {
        if (i % 3 == 0)
            text += "{\"time_iso8601\":\"2000-10-10T13:55:" + std::to_string(10 + i % 40) +
                    (i % 2 ? "-07:00" : "+05:30") + "\",\"remote_addr\":\"1.2.3." +
                    std::to_string(i % 200) + "\",\"request\":\"GET /j" + std::to_string(i % 9) +
                    " HTTP/1.1\",\"status\":\"200\"}\n";
        else if (i % 3 == 1)
            text += "{\"msec\": " + std::to_string(971211336 + i) + ".25, \"uri\": \"/e" +
                    std::to_string(i % 5) + "\", \"status\": 404, \"ip\": \"::1\"}\n";
        else
            text += i % 7 == 0
                        ? "{\"time_iso8601\":\"not a time\",\"status\":\"200\"}\n"
                        : "{\"ts\":\"971211336\",\"status\":" + std::to_string(200 + i % 4) + "}\n";
    }
    return text;
}

// Reads both to their end in lockstep (skipping to `skipAt` lines after `skipAfter` calls, if
// set) and compares every call.
void compareReaders(RowReader& serial, RowReader& parallel, std::uint64_t skipAfter = 0,
                    std::uint64_t skipTo = 0) {
    TraceRow a;
    TraceRow b;
    for (std::uint64_t call = 1;; ++call) {
        if (call == skipAfter) {
            QCOMPARE(parallel.skipToLine(skipTo), serial.skipToLine(skipTo));
            QCOMPARE(parallel.progress().lines, serial.progress().lines);
            QCOMPARE(parallel.progress().bytesRead, serial.progress().bytesRead);
        }
        const TraceStatus want = serial.next(a);
        const TraceStatus got = parallel.next(b);
        QCOMPARE(got, want);
        if (want == TraceStatus::Row) {
            QVERIFY2(b.event == a.event, std::to_string(a.line).c_str());
            QCOMPARE(b.line, a.line);
        } else if (want == TraceStatus::BadRow) {
            QCOMPARE(parallel.error().line, serial.error().line);
            QCOMPARE(parallel.error().kind, serial.error().kind);
            QCOMPARE(parallel.error().message, serial.error().message);
        }
        QCOMPARE(parallel.progress().lines, serial.progress().lines);
        QCOMPARE(parallel.progress().bytesRead, serial.progress().bytesRead);
        QCOMPARE(parallel.progress().rows, serial.progress().rows);
        QCOMPARE(parallel.progress().badRows, serial.progress().badRows);
        QCOMPARE(parallel.progress().filtered, serial.progress().filtered);
        QCOMPARE(parallel.utcOffset(), serial.utcOffset());
        if (want == TraceStatus::End)
            return;
    }
}

AccessLogParser combinedParser(const char* filter = nullptr) {
    AccessLogParser parser(LogFormat::combined(), AccessLogKey::Path);
    if (filter)
        parser.setFilter(std::make_shared<const RecordFilter>(
            std::get<RecordFilter>(RecordFilter::parse(filter))));
    return parser;
}

}  // namespace

class TestParallelLogReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (testing::linesOf(testing::readAll(testing::kRealLog)).size() != testing::kRealLogLines)
            QFAIL("no /usr/share/logstalgia/example.log: run scripts/install-deps.sh");
    }

    void readsAsOneThreadDoes_data() {
        QTest::addColumn<int>("input");  // 0 combined, 1 combined filtered, 2 JSON lines
        QTest::addColumn<unsigned>("threads");
        QTest::addColumn<qulonglong>("batchBytes");
        for (int input : {0, 1, 2}) {
            for (unsigned threads : {2U, 3U, 8U}) {
                for (qulonglong batch :
                     {1ULL, 4096ULL, qulonglong(ParallelLogReader::kBatchBytes)}) {
                    QTest::addRow("input %d, %u threads, batches of %llu bytes", input, threads,
                                  batch)
                        << input << threads << batch;
                }
            }
        }
    }
    void readsAsOneThreadDoes() {
        QFETCH(int, input);
        QFETCH(unsigned, threads);
        QFETCH(qulonglong, batchBytes);
        const std::string text = input == 2 ? jsonLog() : decoratedRealLog();
        const auto parser = [&] {
            return input == 2   ? AccessLogParser::jsonLines(AccessLogKey::Path)
                   : input == 1 ? combinedParser("status=302 or status=404")
                                : combinedParser();
        };
        std::istringstream one(text);
        std::istringstream many(text);
        AccessLogReader serial(one, parser());
        ParallelLogReader parallel(many, parser(), threads, batchBytes);
        compareReaders(serial, parallel);
        QVERIFY(serial.progress().rows > (input == 1 ? 500 : 1000));
        QVERIFY(serial.progress().badRows > 2);
        if (input == 1)
            QVERIFY(serial.progress().filtered > 1000);
    }

    // A flood of blank lines (200,000, no row) and of lines past 64 KiB: batches stay bounded
    // by lines and bytes, and the counts are one thread's.
    void floodsReadAsOneThreadDoes() {
        const QList<QByteArray> real = testing::linesOf(testing::readAll(testing::kRealLog));
        const std::string text = std::string(200000, '\n') + std::string(300 * 1024, 'y') + "\n" +
                                 testing::joined(real.mid(0, 20)).toStdString();
        std::istringstream one(text);
        std::istringstream many(text);
        AccessLogReader serial(one, combinedParser());
        ParallelLogReader parallel(many, combinedParser(), 2, 4096);
        compareReaders(serial, parallel);
        QCOMPARE(serial.progress().lines, std::uint64_t(200021));
        QCOMPARE(serial.progress().rows, std::uint64_t(20));
        QCOMPARE(serial.progress().badRows, std::uint64_t(1));  // the long line
    }

    // skipToLine after some rows (lines read ahead passed over), and at the start.
    void skipsAsOneThreadDoes() {
        const std::string text = decoratedRealLog();
        for (const auto& [after, to] : {std::pair<std::uint64_t, std::uint64_t>{50, 2000},
                                        {1, 3100},
                                        {10, 12},
                                        {3, 999999}}) {
            std::istringstream one(text);
            std::istringstream many(text);
            AccessLogReader serial(one, combinedParser());
            ParallelLogReader parallel(many, combinedParser(), 3, 4096);
            compareReaders(serial, parallel, after, to);
            QVERIFY2(!QTest::currentTestFailed(), std::to_string(to).c_str());
        }
    }

    // Through HitFile (parseThreads): a gzip log inflated on the reading thread, and one cut
    // short, whose cut is found at the same line with the same rows before it.
    void gzipLogsThroughHitFile() {
        QTemporaryDir dir;
        const std::string text = decoratedRealLog();
        const QString whole = dir.filePath(QStringLiteral("access.log.gz"));
        testing::writeGzip(whole, {text.substr(0, text.size() / 3), text.substr(text.size() / 3)});
        const QByteArray bytes = testing::readAll(whole);
        const QString cut = dir.filePath(QStringLiteral("cut.log.gz"));
        QVERIFY(testing::writeAll(cut, bytes.left(bytes.size() * 2 / 3)));
        for (const QString& path : {whole, cut}) {
            HitFileOptions options;
            HitFile serial(path.toStdString(), options);
            options.parseThreads = 2;
            HitFile parallel(path.toStdString(), options);
            compareReaders(serial, parallel);
            QCOMPARE(parallel.truncatedAtLine(), serial.truncatedAtLine());
            QCOMPARE(parallel.truncatedAtLine().has_value(), path == cut);
            QVERIFY(serial.progress().rows > 1000);
        }
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestParallelLogReader)
#include "tst_parallel_log_reader.moc"
