// The handout (issue 24) is a document a teacher would print, read back from the PDF with
// poppler's tools: its text is text (pdftotext), in print sizes (pdftotext -bbox: word heights
// in points), with the goal, the steps, the questions and, on a later page of their own, the
// answers; every page renders (pdftoppm). A rate-limit lesson lists the bucket's tokens left.
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include "core/teach/lessons.h"
#include "core/teach/practice.h"
#include "tests/test_main.h"
#include "ui/teach/teach_files.h"
#include "ui/teach/teach_view.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

int lessonIndex(const char* id) {
    int index = 0;
    while (teach::lessons()[std::size_t(index)].id != id)
        ++index;
    return index;
}

QByteArray run(const QString& program, const QStringList& arguments) {
    QProcess p;
    p.start(program, arguments);
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        qWarning("%s failed: %s", qPrintable(program), p.readAllStandardError().constData());
        return {};
    }
    return p.readAllStandardOutput();
}

// The font's ligatures (ff, fi, fl) as the letters they join.
QString letters(QString text) {
    return text.replace(QChar(0xfb00), QStringLiteral("ff"))
        .replace(QChar(0xfb01), QStringLiteral("fi"))
        .replace(QChar(0xfb02), QStringLiteral("fl"));
}

QString pageText(const QString& pdf, int page) {
    return letters(QString::fromUtf8(
        run(QStringLiteral("pdftotext"),
            {QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
             QString::number(page), QStringLiteral("-layout"), pdf, QStringLiteral("-")})));
}

// The heights in points of every word pdftotext finds.
std::vector<double> wordHeights(const QString& pdf) {
    const QString html = QString::fromUtf8(
        run(QStringLiteral("pdftotext"), {QStringLiteral("-bbox"), pdf, QStringLiteral("-")}));
    const QRegularExpression word(
        QStringLiteral("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" "
                       "yMax=\"([0-9.]+)\">"));
    std::vector<double> out;
    for (auto it = word.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        out.push_back(m.captured(4).toDouble() - m.captured(2).toDouble());
    }
    return out;
}

}  // namespace

class TestHandout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        m_view.resize(1280, 800);
        QVERIFY(m_dir.isValid());
    }

    void aRingLessonIsADocumentWithTheAnswersApart() {
        m_view.loadLesson(lessonIndex("boundary"));  // getHits 14, 15, 16: 2, 1, 0
        const QString pdf = m_dir.filePath(QStringLiteral("boundary.pdf"));
        QString error;
        const int pages = m_view.files()->exportHandoutPdf(pdf, &error);
        QVERIFY2(pages >= 2, qPrintable(error));
        // Every page renders.
        run(QStringLiteral("pdftoppm"),
            {QStringLiteral("-r"), QStringLiteral("60"), QStringLiteral("-png"), pdf,
             m_dir.filePath(QStringLiteral("boundary"))});
        QCOMPARE(int(QDir(m_dir.path()).entryList({QStringLiteral("boundary*.png")}).size()),
                 pages);
        QStringList text;
        for (int p = 1; p <= pages; ++p)
            text << pageText(pdf, p);
        const QString first = text.front();
        for (const char* part : {"Off by one", "Goal", "The steps", "getHits(15)"})
            QVERIFY2(first.contains(QLatin1String(part)), qPrintable(first.left(600)));
        // The questions come before the answers' page, which starts with "Answers".
        int questions = -1;
        int answers = -1;
        for (int p = 0; p < pages; ++p) {
            if (text[p].contains(QStringLiteral("Questions")) && questions < 0)
                questions = p;
            if (text[p].trimmed().startsWith(QStringLiteral("Answers")))
                answers = p;
        }
        QVERIFY(questions >= 0);
        QVERIFY2(answers > questions, qPrintable(text.join(QStringLiteral("\n---\n"))));
        const QString answerPages = QStringList(text.mid(answers)).join(u'\n');
        QVERIFY2(answerPages.contains(QStringLiteral("getHits(15): 1, window (5, 15]")),
                 qPrintable(answerPages));
        for (int p = 0; p < answers; ++p)
            QVERIFY(!text[p].contains(QStringLiteral("window (5, 15]")));
        // Print sizes: most words are the 10-11 pt text, none below 6 pt.
        std::vector<double> heights = wordHeights(pdf);
        QVERIFY(heights.size() > 100);
        std::sort(heights.begin(), heights.end());
        const double median = heights[heights.size() / 2];
        QVERIFY2(median >= 10.0, qPrintable(QString::number(median)));
        QVERIFY2(heights.front() >= 6.0, qPrintable(QString::number(heights.front())));
    }

    // A rate-limit lesson: the decisions asked, then answered, with the bucket's tokens left.
    void aRateLimitLessonAsksAndAnswersTheDecisions() {
        m_view.loadLesson(lessonIndex("limit-bucket"));
        const QString pdf = m_dir.filePath(QStringLiteral("bucket.pdf"));
        QString error;
        const int pages = m_view.files()->exportHandoutPdf(pdf, &error);
        QVERIFY2(pages >= 2, qPrintable(error));
        const QString all = letters(QString::fromUtf8(run(
            QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")})));
        QVERIFY(all.contains(QStringLiteral("Does the token bucket accept the request at 15?")));
        QVERIFY(all.contains(QStringLiteral("tokens left after each request")));
        const QString last = pageText(pdf, pages);
        QVERIFY(!last.isEmpty());
    }

    // A practice's handout has its questions: the same as the practice asks.
    void aPracticesHandoutHasItsQuestions() {
        m_view.startPractice(5);
        const QString pdf = m_dir.filePath(QStringLiteral("practice.pdf"));
        QString error;
        QVERIFY2(m_view.files()->exportHandoutPdf(pdf, &error) >= 2, qPrintable(error));
        const QString all =
            QString::fromUtf8(run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")}));
        const auto qs = teach::questions(m_view.timeline());
        QVERIFY(!qs.empty());
        QVERIFY(all.contains(QStringLiteral("Q%1").arg(qs.size())));
        // The deque and vector questions too, as on paper: naming no earlier count (which
        // would answer the question before it).
        const QString words = all.simplified();
        QVERIFY2(words.contains(QStringLiteral("how many (second, count) pairs does the deque "
                                               "hold?")),
                 qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("how many calls does the naive vector hold?")),
                 qPrintable(words));
        QVERIFY(!words.contains(QStringLiteral("The deque holds")));
        QVERIFY(!words.contains(QStringLiteral("The naive vector holds")));
        m_view.loadLesson(0);
    }

private:
    TeachView m_view;
    QTemporaryDir m_dir;
};

HITCOUNTER_TEST_MAIN(TestHandout)
#include "tst_handout.moc"
