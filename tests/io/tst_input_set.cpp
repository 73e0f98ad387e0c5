// InputSet: several real files read as one. Rotation sets grouped and ordered oldest first
// (numbered and dateext names), a rotation set read exactly as its files concatenated, two
// servers' logs merged in time order with each log's own order kept, --key source labels,
// bad rows named by their own file and line, progress summed, an unreadable file named.
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/io/input_set.h"
#include "tests/io/gzip_writer.h"
#include "tests/test_main.h"

using namespace hitcounter;
using hitcounter::testing::writeGzip;

namespace {

// A Combined Log Format line at 1700000000 + second (14/Nov/2023:22:13:20 +0000 on).
std::string logLine(int second, const std::string& path) {
    const int s = 22 * 3600 + 13 * 60 + 20 + second;
    char time[64];
    std::snprintf(time, sizeof time, "%02d/Nov/2023:%02d:%02d:%02d +0000", 14 + s / 86400,
                  s / 3600 % 24, s / 60 % 60, s % 60);
    return "10.0.0.1 - - [" + std::string(time) + "] \"GET " + path + " HTTP/1.1\" 200 5 \"-\" " +
           "\"agent\"\n";
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

struct Read {
    std::vector<std::pair<Timestamp, std::string>> rows;         // time and key, in order
    std::vector<std::pair<std::string, std::uint64_t>> badRows;  // file and line
};

template <class Reader>
Read readAll(Reader& reader) {
    Read read;
    TraceRow row;
    for (TraceStatus status; (status = reader.next(row)) != TraceStatus::End;) {
        if (status == TraceStatus::Row)
            read.rows.emplace_back(row.event.time, row.event.key);
        else if constexpr (requires { reader.errorFile(); })
            read.badRows.emplace_back(reader.errorFile(), reader.error().line);
    }
    return read;
}

}  // namespace

class TestInputSet : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const std::string& name) const {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }

private Q_SLOTS:
    void rotationSetsAreGroupedOldestFirst() {
        const auto sources = groupInputSources(
            {"web2.log", "a/access.log", "a/access.log.2.gz", "a/access.log.10.gz",
             "a/access.log.1", "b/x.log-20261206", "b/x.log-20261205.gz", "plain.gz"});
        QCOMPARE(sources.size(), std::size_t{4});
        QCOMPARE(sources[0].label, std::string("web2.log"));
        QCOMPARE(sources[0].files, std::vector<std::string>{"web2.log"});
        QCOMPARE(sources[1].label, std::string("a/access.log"));
        const std::vector<std::string> access = {"a/access.log.10.gz", "a/access.log.2.gz",
                                                 "a/access.log.1", "a/access.log"};
        QCOMPARE(sources[1].files, access);
        QCOMPARE(sources[2].label, std::string("b/x.log"));
        const std::vector<std::string> dated = {"b/x.log-20261205.gz", "b/x.log-20261206"};
        QCOMPARE(sources[2].files, dated);
        QCOMPARE(sources[3].label, std::string("plain.gz"));
        // A number in a folder's name is not a rotation number.
        QCOMPARE(groupInputSources({"logs.1/access.log"})[0].label,
                 std::string("logs.1/access.log"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, groupInputSources({"a.log", "a.log"}));
    }

    // access.log.2.gz, access.log.1 and access.log, named in any order, give the rows of the
    // three concatenated oldest first, in that order, late lines and a seam inside one second
    // included.
    void aRotationSetReadsAsItsFilesConcatenated() {
        std::string oldest, middle, newest;
        for (int s = 0; s < 400; ++s)
            oldest += logLine(s, "/o" + std::to_string(s % 3));
        oldest += logLine(390, "/late-in-oldest");
        for (int s = 400; s < 800; s += 2)
            middle += logLine(s, "/m");
        middle += logLine(799, "/seam");
        newest += logLine(799, "/seam-next");  // the same second as the middle file's end
        newest += logLine(700, "/late-in-newest");
        for (int s = 800; s < 1000; ++s)
            newest += logLine(s, "/n");
        writeGzip(QString::fromStdString(path("access.log.2.gz")),
                  {oldest.substr(0, 5000), oldest.substr(5000)});
        writeFile(path("access.log.1"), middle);
        writeFile(path("access.log"), newest);
        writeFile(path("concatenated.log"), oldest + middle + newest);

        HitFile whole(path("concatenated.log"), HitFileOptions{});
        const Read expected = readAll(whole);
        QCOMPARE(expected.rows.size(), std::size_t{401 + 201 + 202});
        InputSet set(
            groupInputSources({path("access.log"), path("access.log.1"), path("access.log.2.gz")}),
            HitFileOptions{}, false);
        QCOMPARE(set.sources().size(), std::size_t{1});
        const Read read = readAll(set);
        QCOMPARE(read.rows, expected.rows);
        QCOMPARE(set.progress().rows, std::uint64_t{expected.rows.size()});
        QVERIFY(set.truncations().empty());
    }

    // Two servers' logs: every row of both, the smaller time first (ties: the log named
    // first), and each log's late line still right after the line its server wrote before it.
    void twoServersAreMergedInTimeOrder() {
        std::string one, two;
        std::vector<std::pair<Timestamp, std::string>> expected;
        for (int s = 0; s < 50; ++s) {
            one += logLine(s, "/one");
            if (s % 2 == 0)
                two += logLine(s, "/two");
        }
        one += logLine(10, "/one-late");  // written after second 49
        writeFile(path("web1.log"), one);
        writeFile(path("web2.log"), two);
        // The merge by hand: at each second web1's line, then web2's (named second), and the
        // late line after web1's last line (its time is older than every web2 line still
        // pending, so it comes out at once).
        for (int s = 0; s < 50; ++s) {
            expected.emplace_back(1700000000 + s, "/one");
            if (s % 2 == 0)
                expected.emplace_back(1700000000 + s, "/two");
        }
        expected.emplace_back(1700000010, "/one-late");

        InputSet set(groupInputSources({path("web1.log"), path("web2.log")}), HitFileOptions{},
                     false);
        QCOMPARE(set.sources().size(), std::size_t{2});
        QCOMPARE(readAll(set).rows, expected);

        // --key source: each row's key is its log's path.
        InputSet bySource(groupInputSources({path("web1.log"), path("web2.log")}), HitFileOptions{},
                          true);
        const Read labelled = readAll(bySource);
        QCOMPARE(labelled.rows.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const bool fromOne = expected[i].second.starts_with("/one");
            QCOMPARE(labelled.rows[i].second, path(fromOne ? "web1.log" : "web2.log"));
        }
    }

    // A bad row is named by its own file and line; the rows around it still come in order.
    void badRowsNameTheirFileAndLine() {
        writeFile(path("good.log"), logLine(0, "/a") + logLine(2, "/a"));
        writeFile(path("bad.log"), logLine(1, "/b") + "not a log line\n" + logLine(3, "/b"));
        InputSet set(groupInputSources({path("good.log"), path("bad.log")}), HitFileOptions{},
                     false);
        const Read read = readAll(set);
        QCOMPARE(read.rows.size(), std::size_t{4});
        QVERIFY(std::is_sorted(read.rows.begin(), read.rows.end()));
        QCOMPARE(read.badRows.size(), std::size_t{1});
        QCOMPARE(read.badRows[0].first, path("bad.log"));
        QCOMPARE(read.badRows[0].second, std::uint64_t{2});
        QCOMPARE(set.progress().badRows, std::uint64_t{1});
        QCOMPARE(set.progress().rows, std::uint64_t{4});
    }

    // A trace CSV and an access log in one set, each detected on its own.
    void eachFileHasItsOwnFormat() {
        writeFile(path("trace.csv"), "timestamp,key\n1700000001,csv\n1700000003,csv\n");
        writeFile(path("server.log"), logLine(2, "/log"));
        InputSet set(groupInputSources({path("trace.csv"), path("server.log")}), HitFileOptions{},
                     false);
        const std::vector<std::pair<Timestamp, std::string>> expected = {
            {1700000001, "csv"}, {1700000002, "/log"}, {1700000003, "csv"}};
        QCOMPARE(readAll(set).rows, expected);
    }

    void aFileThatCannotBeOpenedIsNamed() {
        writeFile(path("here.log"), logLine(0, "/a"));
        try {
            InputSet set(groupInputSources({path("here.log"), path("missing.log")}),
                         HitFileOptions{}, false);
            QFAIL("a missing file was opened");
        } catch (const HitFileError& e) {
            QVERIFY2(std::string(e.what()).find("missing.log") != std::string::npos, e.what());
        }
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestInputSet)
#include "tst_input_set.moc"
