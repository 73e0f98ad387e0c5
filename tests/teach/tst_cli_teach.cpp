// hitcounter-cli teach, run as a process: every step of every lesson at W = 5, 10 and 300
// against the Timeline run in this process (the JSON names of issue 16 build 6), the example's
// answers, a FILE in the editor's syntax and in the LeetCode format, stdin, and bad input named
// by its line (exit code 2).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "../app/cli_process.h"
#include "core/teach/code_templates.h"
#include "core/teach/lessons.h"
#include "core/teach/practice.h"
#include "core/teach/timeline.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

QJsonObject parseJson(const CliResult& r) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError) {
        qWarning("not JSON: %s\n%s", qPrintable(error.errorString()), r.out.left(400).constData());
    }
    return doc.object();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) {
        qFatal("cannot write %s", qPrintable(file.fileName()));
    }
    return file.fileName();
}

std::vector<qint64> answers(const QJsonObject& root) {
    std::vector<qint64> out;
    for (const QJsonValue& step : root.value(QStringLiteral("steps")).toArray()) {
        const QJsonValue a = step.toObject().value(QStringLiteral("answer"));
        if (!a.isNull())
            out.push_back(a.toInteger());
    }
    return out;
}

}  // namespace

class TestCliTeach : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // --variant (issue 16, build 4): a ring with >= stops at getHits(15) of the boundary lesson
    // with both sides; the reference's choices report no difference; bad specs exit 2.
    void variantStopsAtTheFirstDifference() {
        const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                    QStringLiteral("boundary"), QStringLiteral("--variant"),
                                    QStringLiteral("compare=>=,index=t%W,reset=second,"
                                                   "store=second+count"),
                                    QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject root = parseJson(r);
        QCOMPARE(root.value(QStringLiteral("variant")).toString(),
                 QStringLiteral("compare=>=,index=t%W,reset=second,store=second+count"));
        QVERIFY(root.value(QStringLiteral("steps")).toArray().size() > 4);
        const QJsonObject d = root.value(QStringLiteral("first_difference")).toObject();
        QCOMPARE(d.value(QStringLiteral("step")).toInt(), 4);
        QCOMPARE(root.value(QStringLiteral("variant_steps")).toInt(), 4);
        QCOMPARE(d.value(QStringLiteral("operation")).toString(), QStringLiteral("getHits 15"));
        QCOMPARE(d.value(QStringLiteral("what")).toString(), QStringLiteral("answer"));
        QCOMPARE(d.value(QStringLiteral("mine")).toString(), QStringLiteral("2"));
        QCOMPARE(d.value(QStringLiteral("reference")).toString(), QStringLiteral("1"));
        QVERIFY(d.value(QStringLiteral("narration")).toString().contains(QStringLiteral(">=")));
        const QJsonObject mine = d.value(QStringLiteral("mine_state")).toObject();
        const QJsonObject ref = d.value(QStringLiteral("reference_state")).toObject();
        QCOMPARE(mine.value(QStringLiteral("answer")).toInt(), 2);
        QCOMPARE(ref.value(QStringLiteral("answer")).toInt(), 1);
        QCOMPARE(mine.value(QStringLiteral("slots")).toArray().size(), 10);
        QCOMPARE(ref.value(QStringLiteral("slots"))
                     .toArray()
                     .at(5)
                     .toObject()
                     .value(QStringLiteral("second"))
                     .toInt(),
                 5);

        const CliResult same = runCli({QStringLiteral("teach"), QStringLiteral("--practice"),
                                       QStringLiteral("42"), QStringLiteral("--variant"),
                                       QStringLiteral("reset=sweep"), QStringLiteral("--json")});
        QVERIFY2(same.finished && same.exitCode == 0, same.err.constData());
        QVERIFY(parseJson(same).value(QStringLiteral("first_difference")).isNull());

        const CliResult text = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                       QStringLiteral("why-second"), QStringLiteral("--variant"),
                                       QStringLiteral("reset=never")});
        QVERIFY2(text.finished && text.exitCode == 0, text.err.constData());
        // Issue 24: only a wrong answer is a failure; the state's first divergence is told first.
        QVERIFY2(text.out.contains("first divergence at step 4: hit 13"), text.out.constData());
        QVERIFY2(text.out.contains("first difference at step 5: getHits 13"), text.out.constData());

        for (const char* bad : {"compare=<", "store=count", "colour=red"}) {
            const CliResult r2 = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                         QStringLiteral("boundary"), QStringLiteral("--variant"),
                                         QString::fromLatin1(bad)});
            QCOMPARE(r2.exitCode, 2);
            QVERIFY2(r2.err.contains("--variant"), r2.err.constData());
        }
        const CliResult limit = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                        QStringLiteral("limit-burst"), QStringLiteral("--variant"),
                                        QStringLiteral("compare=>")});
        QCOMPARE(limit.exitCode, 2);
    }

    void everyLessonsStepsMatchTheTimeline_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("window");
        for (const auto& lesson : teach::lessons()) {
            if (lesson.kind != teach::LessonKind::Ring)
                continue;
            for (int w : {5, 10, 300})
                QTest::addRow("%s W=%d", lesson.id.c_str(), w)
                    << QString::fromStdString(lesson.id) << w;
        }
    }
    void everyLessonsStepsMatchTheTimeline() {
        QFETCH(QString, id);
        QFETCH(int, window);
        const CliResult r =
            runCli({QStringLiteral("teach"), QStringLiteral("--lesson"), id,
                    QStringLiteral("--window"), QString::number(window), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject root = parseJson(r);
        QCOMPARE(root.value(QStringLiteral("window_seconds")).toInt(), window);
        const QJsonArray steps = root.value(QStringLiteral("steps")).toArray();
        const teach::Lesson* lesson = nullptr;
        for (const auto& l : teach::lessons())
            if (QString::fromStdString(l.id) == id)
                lesson = &l;
        const auto ops =
            std::get<std::vector<teach::Operation>>(teach::parseOperations(lesson->operations));
        const teach::Timeline timeline(ops, std::chrono::seconds{window}, lesson->code);
        QCOMPARE(steps.size(), qsizetype(timeline.frames().size()));
        for (qsizetype k = 0; k < steps.size(); ++k) {
            const QJsonObject s = steps[k].toObject();
            const teach::Frame& f = timeline.frames()[std::size_t(k)];
            for (const char* name : {"operation", "answer", "window", "line", "narration", "slots"})
                QVERIFY2(s.contains(QLatin1String(name)), name);
            QCOMPARE(s.value(QStringLiteral("narration")).toString(),
                     QString::fromStdString(f.narration));
            QCOMPARE(s.value(QStringLiteral("answer")).isNull(), !f.answer.has_value());
            if (f.answer)
                QCOMPARE(s.value(QStringLiteral("answer")).toInteger(), qint64(*f.answer));
            if (f.op)
                QCOMPARE(s.value(QStringLiteral("window")).toString(),
                         QString::fromStdString(f.windowText()));
            const QJsonArray slots = s.value(QStringLiteral("slots")).toArray();
            QCOMPARE(slots.size(), qsizetype(window));
            for (int i = 0; i < window; ++i) {
                const auto& slot = f.ring[std::size_t(i)];
                QCOMPARE(slots[i].isNull(), !slot.used);
                if (slot.used) {
                    QCOMPARE(slots[i].toObject().value(QStringLiteral("second")).toInteger(),
                             qint64(slot.second));
                    QCOMPARE(slots[i].toObject().value(QStringLiteral("count")).toInteger(),
                             qint64(slot.count));
                }
            }
            // Build 2: the cost in slot visits, scan against running total.
            const QJsonObject visits = s.value(QStringLiteral("slot_visits")).toObject();
            QCOMPARE(visits.value(QStringLiteral("scan")).toInteger(), qint64(f.scanVisits));
            QCOMPARE(visits.value(QStringLiteral("running_total")).toInteger(),
                     qint64(f.runningVisits));
            QCOMPARE(visits.value(QStringLiteral("scan_so_far")).toInteger(),
                     qint64(f.scanVisitsSoFar));
            QCOMPARE(visits.value(QStringLiteral("running_total_so_far")).toInteger(),
                     qint64(f.runningVisitsSoFar));
            QCOMPARE(visits.value(QStringLiteral("expired")).toArray().size(),
                     qsizetype(f.expired.size()));
            const QJsonArray subs = s.value(QStringLiteral("sub_steps")).toArray();
            QCOMPARE(subs.size(), qsizetype(f.subSteps.size()));
            for (qsizetype i = 0; i < subs.size(); ++i) {
                const auto& sub = f.subSteps[std::size_t(i)];
                const QJsonObject o = subs[i].toObject();
                // The line of the lesson's own listing (the running-total lesson's is
                // kRunningPseudocode), numbered within it.
                QCOMPARE(teach::codeOf(sub.line), lesson->code);
                QCOMPARE(o.value(QStringLiteral("line_number")).toInt(),
                         teach::lineIndex(sub.line) + 1);
                QVERIFY(teach::lineText(sub.line).find(
                            o.value(QStringLiteral("line")).toString().toStdString()) !=
                        std::string_view::npos);
                QCOMPARE(o.value(QStringLiteral("text")).toString(),
                         QString::fromStdString(sub.text));
            }
        }
    }

    // Build 2: the running-total lesson's getHits cost W = 10 slot visits as a scan and only
    // the expired slots (fewer than W) with the running total; at W = 300 the scan costs 300.
    void slotVisitsAreExported() {
        for (int window : {10, 300}) {
            const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                        QStringLiteral("running-total"), QStringLiteral("--window"),
                                        QString::number(window), QStringLiteral("--json")});
            QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
            const QJsonArray steps = parseJson(r).value(QStringLiteral("steps")).toArray();
            int getHits = 0;
            for (const QJsonValue& v : steps) {
                const QJsonObject step = v.toObject();
                if (!step.value(QStringLiteral("operation"))
                         .toString()
                         .startsWith(QStringLiteral("getHits")))
                    continue;
                ++getHits;
                const QJsonObject visits = step.value(QStringLiteral("slot_visits")).toObject();
                QCOMPARE(visits.value(QStringLiteral("scan")).toInt(), window);
                QVERIFY(visits.value(QStringLiteral("running_total")).toInt() < window);
                QVERIFY(step.value(QStringLiteral("cost"))
                            .toString()
                            .contains(QStringLiteral("visits all %1 slots").arg(window)));
                if (window == 10 && step.value(QStringLiteral("operation")).toString() ==
                                        QStringLiteral("getHits 11")) {
                    QCOMPARE(visits.value(QStringLiteral("running_total")).toInt(), 1);
                    QCOMPARE(visits.value(QStringLiteral("expired")).toArray(), QJsonArray{1});
                }
            }
            QCOMPARE(getHits, 11);
        }
    }

    void exampleAnswersThreeFourThreeWithItsWindowsAndLines() {
        const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                    QStringLiteral("example"), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject root = parseJson(r);
        QCOMPARE(answers(root), (std::vector<qint64>{3, 4, 3}));
        const QJsonObject last = root.value(QStringLiteral("steps")).toArray().last().toObject();
        QCOMPARE(last.value(QStringLiteral("operation")).toString(), QStringLiteral("getHits 301"));
        QCOMPARE(last.value(QStringLiteral("window")).toString(), QStringLiteral("(1, 301]"));
        QCOMPARE(last.value(QStringLiteral("line")).toString(), QStringLiteral("return total"));
    }

    // Issue 16's own example: W = 10, hit 1; hit 12; getHits 5 is 0 in (2, 5].
    void aFileInTheEditorsSyntaxShowsTheEffectiveWindow() {
        QTemporaryDir dir;
        const QString file =
            writeFile(dir, QStringLiteral("past.txt"), "hit 1\nhit 12 # later\ngetHits 5\n");
        const CliResult r = runCli({QStringLiteral("teach"), file, QStringLiteral("--window"),
                                    QStringLiteral("10"), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject root = parseJson(r);
        const QJsonObject s = root.value(QStringLiteral("steps")).toArray()[3].toObject();
        QCOMPARE(s.value(QStringLiteral("operation")).toString(), QStringLiteral("getHits 5"));
        QCOMPARE(s.value(QStringLiteral("answer")).toInteger(), 0);
        QCOMPARE(s.value(QStringLiteral("window")).toString(), QStringLiteral("(2, 5]"));
        QCOMPARE(root.value(QStringLiteral("file")).toString(), file);
    }

    // Issue 30 item 20: a file over 1 MiB was cut there and then failed with a syntax error
    // about the cut line (or ran on what was left); it is refused with its size. 1 MiB is read.
    void aFileOverOneMebibyteIsRefusedWithItsSize() {
        QTemporaryDir dir;
        const QByteArray head = "hit 1\n# ";
        const QByteArray tail = "\ngetHits 1\n";
        const QByteArray exact =
            head + QByteArray(qsizetype(1 << 20) - head.size() - tail.size(), 'x') + tail;
        QCOMPARE(exact.size(), qsizetype(1048576));
        const QString fits = writeFile(dir, QStringLiteral("fits.txt"), exact);
        const CliResult ok = runCli({QStringLiteral("teach"), fits, QStringLiteral("--json")});
        QVERIFY2(ok.finished && ok.exitCode == 0, ok.err.constData());
        QCOMPARE(answers(parseJson(ok)), (std::vector<qint64>{1}));

        const QString big =
            writeFile(dir, QStringLiteral("big.txt"), head + "x" + exact.mid(head.size()));
        const CliResult r = runCli({QStringLiteral("teach"), big});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cannot read '" + big.toUtf8() +
                                "': it is 1,048,577 bytes, more than the 1,048,576 bytes (1 MiB)"),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());

        const CliResult piped = runCli({QStringLiteral("teach"), QStringLiteral("-")},
                                       head + "x" + exact.mid(head.size()));
        QCOMPARE(piped.exitCode, 2);
        QVERIFY2(piped.err.contains("standard input': it has more than the 1,048,576 bytes"),
                 piped.err.constData());
    }

    // Issue 30 item 9: a FIFO blocked teach in open() (no writer, forever).
    void aFifoIsRefusedAtOnce() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const CliResult r = runCli({QStringLiteral("teach"), fifo}, {}, 20000);
        QVERIFY2(r.finished, "teach blocked on the FIFO");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(fifo.toUtf8() + "': it is a FIFO"), r.err.constData());
    }

    void theLeetCodeFormatFromStdinDefaultsToThreeHundred() {
        const QByteArray input =
            "[\"HitCounter\",\"hit\",\"hit\",\"hit\",\"getHits\",\"hit\","
            "\"getHits\",\"getHits\"]\n[[],[1],[2],[3],[4],[300],[300],[301]]\n";
        const CliResult r =
            runCli({QStringLiteral("teach"), QStringLiteral("-"), QStringLiteral("--json")}, input);
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject root = parseJson(r);
        QCOMPARE(root.value(QStringLiteral("window_seconds")).toInt(), 300);
        QCOMPARE(answers(root), (std::vector<qint64>{3, 4, 3}));
    }

    void rateLimitLessonsPrintTheirDecisions() {
        const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                    QStringLiteral("limit-burst"), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonArray steps = parseJson(r).value(QStringLiteral("steps")).toArray();
        QCOMPARE(steps.size(), 8);
        const QJsonArray lanes = steps[3].toObject().value(QStringLiteral("limiters")).toArray();
        QCOMPARE(lanes.size(), 4);  // issue 24: all four limiters side by side
        QCOMPARE(lanes[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("fixed"));
        QCOMPARE(lanes[0].toObject().value(QStringLiteral("accepted")).toInt(), 1);  // 60
        QCOMPARE(lanes[1].toObject().value(QStringLiteral("rejected")).toInt(), 1);
        QCOMPARE(lanes[3].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("bucket"));
        QCOMPARE(lanes[3].toObject().value(QStringLiteral("tokens_left")).toArray().size(), 3);
        // The questions Predict asks: one per single request, the answers per limiter.
        const QJsonArray questions = parseJson(r).value(QStringLiteral("questions")).toArray();
        QCOMPARE(questions.size(), 7);
        const QJsonObject at60 =
            questions[2].toObject().value(QStringLiteral("accepted")).toObject();
        QCOMPARE(at60.value(QStringLiteral("fixed")).toBool(), true);
        QCOMPARE(at60.value(QStringLiteral("log")).toBool(), false);
    }

    // The write-up's table of the bucket's tokens left per request (issue 24).
    void theTokensLessonPrintsTheWriteUpsTable() {
        const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                    QStringLiteral("limit-tokens"), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonArray steps = parseJson(r).value(QStringLiteral("steps")).toArray();
        const QJsonArray lanes =
            steps.last().toObject().value(QStringLiteral("limiters")).toArray();
        QCOMPARE(lanes[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("bucket"));
        QCOMPARE(lanes[0].toObject().value(QStringLiteral("tokens_left")).toArray(),
                 (QJsonArray{1.0, 0.97, 0.63, 0.3, 0.3}));
    }

    // The view's practice, headless: the same operations for the same seed, with its questions.
    void practiceListsItsQuestions() {
        const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--practice"),
                                    QStringLiteral("3"), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject root = parseJson(r);
        QCOMPARE(root.value(QStringLiteral("window_seconds")).toInt(), 10);
        QCOMPARE(root.value(QStringLiteral("operations")).toString().toStdString(),
                 teach::practiceOperations(3, std::chrono::seconds{10}));
        const QJsonArray questions = root.value(QStringLiteral("questions")).toArray();
        QVERIFY(questions.size() >= 2);
        const QJsonArray steps = root.value(QStringLiteral("steps")).toArray();
        QSet<QString> kinds;
        for (const QJsonValue& q : questions) {
            const QJsonObject o = q.toObject();
            const QString kind = o.value(QStringLiteral("kind")).toString();
            kinds << kind;
            const QJsonObject step = steps[o.value(QStringLiteral("step")).toInt()].toObject();
            const qint64 answer = o.value(QStringLiteral("answer")).toInteger();
            if (kind == QStringLiteral("getHits"))
                QCOMPARE(step.value(QStringLiteral("answer")).toInteger(), answer);
            // The deque and vector questions: what that step's drawing lists.
            if (kind == QStringLiteral("deque_pairs"))
                QCOMPARE(qint64(step.value(QStringLiteral("deque")).toArray().size()), answer);
            if (kind == QStringLiteral("vector_calls"))
                QCOMPARE(qint64(step.value(QStringLiteral("vector")).toArray().size()), answer);
        }
        QCOMPARE(kinds,
                 (QSet<QString>{QStringLiteral("getHits"), QStringLiteral("slot_count"),
                                QStringLiteral("deque_pairs"), QStringLiteral("vector_calls")}));
    }

    // Issue 24, wrong 1: every step gains ring, deque and vector, each entry judged by that
    // step's window: for getHits(12) after hits at 5 and 15 (W = 10) the window is (5, 12],
    // so neither second counts, though 15 is in the head's window (5, 15].
    void stepsJudgeTheirEntriesByTheQueryWindow() {
        const CliResult r =
            runCli({QStringLiteral("teach"), QStringLiteral("-"), QStringLiteral("--window"),
                    QStringLiteral("10"), QStringLiteral("--json")},
                   "hit 5\nhit 15\ngetHits 12\nhit 1\nhit 16\ngetHits 16\n");
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonArray steps = parseJson(r).value(QStringLiteral("steps")).toArray();
        const QJsonObject past = steps.at(3).toObject();
        QCOMPARE(past.value(QStringLiteral("window")).toString(), QStringLiteral("(5, 12]"));
        // Second 15 took slot 5 from second 5 (15 mod 10).
        const QJsonArray ring = past.value(QStringLiteral("ring")).toArray();
        QCOMPARE(ring.size(), 1);
        const QJsonObject slot = ring.at(0).toObject();
        QCOMPARE(slot.value(QStringLiteral("slot")).toInt(), 5);
        QCOMPARE(slot.value(QStringLiteral("second")).toInt(), 15);
        QCOMPARE(slot.value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(slot.value(QStringLiteral("in_window")).toBool(), false);
        // The head's view is still in "slots": second 15 is alive there.
        QVERIFY(past.value(QStringLiteral("slots"))
                    .toArray()
                    .at(5)
                    .toObject()
                    .value(QStringLiteral("in_window"))
                    .toBool());
        const QJsonArray deque = past.value(QStringLiteral("deque")).toArray();
        QCOMPARE(deque.size(), 1);  // (5, 1) popped: 5 <= 15 - 10
        QCOMPARE(deque.at(0).toObject().value(QStringLiteral("second")).toInt(), 15);
        QCOMPARE(deque.at(0).toObject().value(QStringLiteral("in_window")).toBool(), false);
        const QJsonArray vector = past.value(QStringLiteral("vector")).toArray();
        QCOMPARE(vector.size(), 2);
        QCOMPARE(vector.at(0).toObject().value(QStringLiteral("time")).toInt(), 5);
        QCOMPARE(vector.at(1).toObject().value(QStringLiteral("in_window")).toBool(), false);
        // getHits(16) at the head: (6, 16] counts 15 and 16, not 5 nor the dropped 1.
        const QJsonObject now = steps.at(6).toObject();
        QCOMPARE(now.value(QStringLiteral("answer")).toInt(), 2);
        int counted = 0;
        for (const QJsonValue& v : now.value(QStringLiteral("vector")).toArray())
            counted += v.toObject().value(QStringLiteral("in_window")).toBool() ? 1 : 0;
        QCOMPARE(counted, 2);
        QCOMPARE(now.value(QStringLiteral("vector")).toArray().size(), 3);  // 5, 15, 16
    }

    // --code (issue 24): the write-up's ring agrees (exit 0) with exactly the documented
    // fields; a mistake differs (exit 1) with its first difference, the minimal sequence and
    // its name; a runaway loop is a difference; a syntax error names its line (exit 2).
    void codeAgreesWithTheDocumentedFields() {
        QTemporaryDir dir;
        const QString ring =
            writeFile(dir, QStringLiteral("ring.js"),
                      QByteArray::fromStdString(std::string(teach::codeTemplate("ring")->source)));
        const CliResult r =
            runCli({QStringLiteral("teach"), QStringLiteral("--code"), ring,
                    QStringLiteral("--window"), QStringLiteral("10"), QStringLiteral("--seed"),
                    QStringLiteral("7"), QStringLiteral("--json")},
                   {}, 120000);
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QJsonObject root = parseJson(r);
        for (const char* field : {"agrees", "first_difference", "minimal", "mistake",
                                  "operations_per_call", "memory_bytes"})
            QVERIFY2(root.contains(QLatin1String(field)), field);
        QCOMPARE(root.value(QStringLiteral("agrees")).toBool(), true);
        QVERIFY(root.value(QStringLiteral("first_difference")).isNull());
        QVERIFY(root.value(QStringLiteral("minimal")).toArray().isEmpty());
        QVERIFY(root.value(QStringLiteral("mistake")).isNull());
        const QJsonObject perCall = root.value(QStringLiteral("operations_per_call")).toObject();
        QCOMPARE(perCall.keys(), (QStringList{QStringLiteral("max"), QStringLiteral("mean")}));
        // The ring scans its 10 buckets: a getHits reads times[i] (and hits[i] when counted).
        QVERIFY(perCall.value(QStringLiteral("max")).toInteger() >= 10);
        QVERIFY(perCall.value(QStringLiteral("max")).toInteger() <= 20);
        QVERIFY(perCall.value(QStringLiteral("mean")).toDouble() > 0);
        // Two arrays of 10 numbers and the field w: 16 + 3 keys and slots + 2 x (16 + 80).
        QCOMPARE(root.value(QStringLiteral("memory_bytes")).toInteger(), 16 + 3 * 16 + 2 * 96);
        QCOMPARE(root.value(QStringLiteral("seed")).toInteger(), 7);
    }

    void codeWithAMistakeDiffersAndIsNamed() {
        const CliResult r =
            runCli({QStringLiteral("teach"), QStringLiteral("--code"),
                    QStringLiteral(HITCOUNTER_TEACH_JS_DIR "/inclusive_edge_ring.js"),
                    QStringLiteral("--window"), QStringLiteral("10"), QStringLiteral("--json")},
                   {}, 120000);
        QVERIFY2(r.finished && r.exitCode == 1, r.err.constData());
        const QJsonObject root = parseJson(r);
        QCOMPARE(root.value(QStringLiteral("agrees")).toBool(), false);
        const QJsonObject first = root.value(QStringLiteral("first_difference")).toObject();
        QCOMPARE(first.value(QStringLiteral("operation")).toString(), QStringLiteral("getHits 11"));
        QCOMPARE(first.value(QStringLiteral("step")).toInt(), 7);
        QCOMPARE(first.value(QStringLiteral("yours")).toInt(), 4);
        QCOMPARE(first.value(QStringLiteral("reference")).toInt(), 3);
        QCOMPARE(root.value(QStringLiteral("minimal")).toArray(),
                 (QJsonArray{QStringLiteral("hit 1"), QStringLiteral("getHits 11")}));
        QCOMPARE(root.value(QStringLiteral("mistake")).toString(),
                 QStringLiteral("inclusive_edge"));

        const CliResult text = runCli({QStringLiteral("teach"), QStringLiteral("--code"),
                                       QStringLiteral(HITCOUNTER_TEACH_JS_DIR "/no_reset.js"),
                                       QStringLiteral("--window"), QStringLiteral("10")},
                                      {}, 120000);
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains("mistake: no reset (no_reset)"), text.out.constData());
        QVERIFY2(text.out.contains("getHits 11"), text.out.constData());
    }

    void codeThatRunsAwayIsADifference() {
        const CliResult r =
            runCli({QStringLiteral("teach"), QStringLiteral("--code"),
                    QStringLiteral(HITCOUNTER_TEACH_JS_DIR "/runaway.js"),
                    QStringLiteral("--window"), QStringLiteral("10"), QStringLiteral("--json")},
                   {}, 120000);
        QVERIFY2(r.finished && r.exitCode == 1, r.err.constData());
        const QJsonObject root = parseJson(r);
        QCOMPARE(root.value(QStringLiteral("agrees")).toBool(), false);
        const QString yours = root.value(QStringLiteral("first_difference"))
                                  .toObject()
                                  .value(QStringLiteral("yours"))
                                  .toString();
        QVERIFY2(yours.contains(QStringLiteral("getHits(4) ran longer than 250 ms")),
                 qPrintable(yours));
        QCOMPARE(root.value(QStringLiteral("minimal")).toArray(),
                 (QJsonArray{QStringLiteral("getHits 1")}));
    }

    void codeThatDoesNotCompileNamesTheLine() {
        const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--code"),
                                    QStringLiteral(HITCOUNTER_TEACH_JS_DIR "/syntax_error.js"),
                                    QStringLiteral("--json")});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("syntax_error.js: line 6: SyntaxError"), r.err.constData());
        QVERIFY(r.out.isEmpty());
        const CliResult missing = runCli({QStringLiteral("teach"), QStringLiteral("--code"),
                                          QStringLiteral("/nonexistent/counter.js")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("/nonexistent/counter.js"));
        const CliResult both =
            runCli({QStringLiteral("teach"), QStringLiteral("--code"), QStringLiteral("x.js"),
                    QStringLiteral("--practice"), QStringLiteral("3")});
        QCOMPARE(both.exitCode, 2);
    }

    // Issue 24: the question bank's three levels reach the command line. A warm-up has its
    // hits in time order and asks only at the head (no late hit, no query into the past), as
    // read from its steps; out of order (the default) has both.
    void practiceLevelsReachTheCommandLine() {
        const auto kinds = [](const QJsonObject& root) {
            qint64 head = 0;
            bool late = false, past = false;
            for (const QJsonValue& v : root.value(QStringLiteral("steps")).toArray()) {
                const QStringList op =
                    v.toObject().value(QStringLiteral("operation")).toString().split(u' ');
                if (op.size() < 2)
                    continue;
                const qint64 t = op.at(1).toLongLong();
                if (op.at(0) == QStringLiteral("hit") && t < head)
                    late = true;
                if (op.at(0) == QStringLiteral("getHits") && t < head)
                    past = true;
                head = std::max(head, t);
            }
            return std::pair{late, past};
        };
        for (const char* seed : {"1", "7", "42"}) {
            const CliResult warm =
                runCli({QStringLiteral("teach"), QStringLiteral("--practice"), QLatin1String(seed),
                        QStringLiteral("--level"), QStringLiteral("1"), QStringLiteral("--json")});
            QVERIFY2(warm.finished && warm.exitCode == 0, warm.err.constData());
            QCOMPARE(parseJson(warm).value(QStringLiteral("practice_level")).toInt(), 1);
            QCOMPARE(kinds(parseJson(warm)), std::pair(false, false));
            const CliResult hard = runCli({QStringLiteral("teach"), QStringLiteral("--practice"),
                                           QLatin1String(seed), QStringLiteral("--json")});
            QVERIFY2(hard.finished && hard.exitCode == 0, hard.err.constData());
            QCOMPARE(parseJson(hard).value(QStringLiteral("practice_level")).toInt(), 3);
            QCOMPARE(kinds(parseJson(hard)), std::pair(true, true));
        }
        const CliResult bad =
            runCli({QStringLiteral("teach"), QStringLiteral("--practice"), QStringLiteral("1"),
                    QStringLiteral("--level"), QStringLiteral("4")});
        QCOMPARE(bad.exitCode, 2);
        const CliResult alone =
            runCli({QStringLiteral("teach"), QStringLiteral("--lesson"), QStringLiteral("boundary"),
                    QStringLiteral("--level"), QStringLiteral("1")});
        QCOMPARE(alone.exitCode, 2);
        QVERIFY(alone.err.contains("--level goes with --practice"));
    }

    // Issue 24: every sub-step says why its line is there.
    void subStepsSayWhy() {
        const CliResult r = runCli({QStringLiteral("teach"), QStringLiteral("--lesson"),
                                    QStringLiteral("why-second"), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        int subs = 0;
        for (const QJsonValue& step : parseJson(r).value(QStringLiteral("steps")).toArray())
            for (const QJsonValue& sub :
                 step.toObject().value(QStringLiteral("sub_steps")).toArray()) {
                QVERIFY(sub.toObject().value(QStringLiteral("why")).toString().size() > 20);
                ++subs;
            }
        QVERIFY(subs > 20);
    }

    void textOutputListsEveryStep() {
        const CliResult r = runCli(
            {QStringLiteral("teach"), QStringLiteral("--lesson"), QStringLiteral("boundary")});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("step 4: getHits 15 -> 1 in (5, 15]"));
        QVERIFY(r.out.contains("slot 5: 5 < 5 <= 15? no"));
    }

    void badInputNamesTheLineAndExitsTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("bad second")
            << QStringList{QStringLiteral("-")} << QByteArray("hit 1\nhit two\n")
            << QByteArray("-: line 2, column 5:");
        QTest::newRow("unknown lesson")
            << QStringList{QStringLiteral("--lesson"), QStringLiteral("nope")} << QByteArray()
            << QByteArray("unknown lesson 'nope'");
        QTest::newRow("window too small")
            << QStringList{QStringLiteral("--lesson"), QStringLiteral("example"),
                           QStringLiteral("--window"), QStringLiteral("4")}
            << QByteArray() << QByteArray("--window");
        QTest::newRow("no file") << QStringList{} << QByteArray()
                                 << QByteArray("teach expects one FILE, --lesson ID or --practice");
        QTest::newRow("missing file") << QStringList{QStringLiteral("/nonexistent/ops.txt")}
                                      << QByteArray() << QByteArray("/nonexistent/ops.txt");
    }
    void badInputNamesTheLineAndExitsTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, message);
        const CliResult r =
            runCli(QStringList{QStringLiteral("teach")} + arguments + QStringList{"--json"}, input);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliTeach)
#include "tst_cli_teach.moc"
