// The teaching view offscreen: stepping through every lesson shows the timeline's frames in
// both directions (the rate-limit lessons through the limiters), Predict mode stops before
// getHits, bad input keeps the lesson, PNG export.
#include <QCheckBox>
#include <QDir>
#include <QImage>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include "core/teach/lessons.h"
#include "ui/teach/code_view.h"
#include "ui/teach/lesson_panel.h"
#include "ui/teach/limiter_view.h"
#include "ui/teach/teach_view.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

QString plain(const QString& html) {
    QString text = html;
    text.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
    return text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
}

}  // namespace

class TestTeachView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        m_view.resize(1280, 800);
        m_view.show();
    }

    void startsOnTheLeetCodeExample() {
        m_view.loadLesson(0);
        QCOMPARE(m_view.currentStep(), 0);
        QCOMPARE(m_view.timeline().window().count(), 300);
        QCOMPARE(m_view.lessonPanel()->lessonId(), QStringLiteral("example"));
        QVERIFY(plain(m_view.narration()).contains(QStringLiteral("Step 0 of 7")));
    }

    void everyLessonStepsForwardAndBackThroughItsFrames_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < teach::lessons().size(); ++i) {
            if (teach::lessons()[i].kind == teach::LessonKind::Ring)
                QTest::newRow(teach::lessons()[i].id.c_str()) << int(i);
        }
    }

    void everyLessonStepsForwardAndBackThroughItsFrames() {
        QFETCH(int, index);
        m_view.loadLesson(index);
        const auto& frames = m_view.timeline().frames();
        const auto& lesson = teach::lessons()[std::size_t(index)];
        QCOMPARE(m_view.timeline().window(), lesson.window);
        QCOMPARE(int(frames.size()), m_view.lastStep() + 1);
        auto check = [&](int step) {
            QCOMPARE(m_view.currentStep(), step);
            const auto& f = frames[std::size_t(step)];
            const QString text = plain(m_view.narration());
            QVERIFY2(text.contains(QString::fromStdString(f.narration).toHtmlEscaped()) ||
                         text.contains(QString::fromStdString(f.narration)),
                     qPrintable(text));
            QCOMPARE(m_view.findChild<CodeView*>()->line(), f.codeLine);
        };
        check(0);
        for (int step = 1; step <= m_view.lastStep(); ++step) {
            m_view.stepForward();
            check(step);
        }
        m_view.stepForward();  // at the end: stays
        check(m_view.lastStep());
        for (int step = m_view.lastStep() - 1; step >= 0; --step) {
            m_view.stepBack();
            check(step);
        }
    }

    // A rate-limit lesson shows the limiters instead of the ring; its steps narrate the
    // LimiterTimeline's reasons both ways; a ring lesson afterwards brings the ring back.
    void rateLimitLessonsStepThroughTheLimiters_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < teach::lessons().size(); ++i) {
            if (teach::lessons()[i].kind == teach::LessonKind::RateLimit)
                QTest::newRow(teach::lessons()[i].id.c_str()) << int(i);
        }
    }
    void rateLimitLessonsStepThroughTheLimiters() {
        QFETCH(int, index);
        m_view.loadLesson(index);
        const auto* limits = m_view.limiterTimeline();
        QVERIFY(limits != nullptr);
        const auto& lesson = teach::lessons()[std::size_t(index)];
        QCOMPARE(limits->limit().limit, lesson.limit);
        QCOMPARE(limits->names(), lesson.limiters);
        QCOMPARE(m_view.lastStep(), int(limits->frames().size()) - 1);
        QVERIFY(!m_view.findChild<LimiterView*>()->isHidden());
        QVERIFY(m_view.findChild<CodeView*>()->isHidden() ||
                !m_view.findChild<CodeView*>()->isVisibleTo(&m_view));
        QVERIFY(!m_view.lessonPanel()->predictSwitch()->isEnabled());
        auto check = [&](int step) {
            QCOMPARE(m_view.currentStep(), step);
            const QString text = plain(m_view.narration());
            const auto& narration = limits->frames()[std::size_t(step)].narration;
            QVERIFY2(text.contains(QString::fromStdString(narration).toHtmlEscaped()),
                     qPrintable(text));
        };
        check(0);
        for (int step = 1; step <= m_view.lastStep(); ++step) {
            m_view.stepForward();
            check(step);
        }
        for (int step = m_view.lastStep() - 1; step >= 0; --step) {
            m_view.stepBack();
            check(step);
        }
        m_view.loadLesson(0);
        QVERIFY(m_view.limiterTimeline() == nullptr);
        QVERIFY(m_view.findChild<CodeView*>()->isVisibleTo(&m_view));
        QVERIFY(m_view.lessonPanel()->predictSwitch()->isEnabled());
    }

    void exampleShowsThreeFourThreeInTheNarration() {
        m_view.loadLesson(0);
        QStringList answers;
        for (int step = 1; step <= m_view.lastStep(); ++step) {
            m_view.showStep(step);
            const auto& f = m_view.timeline().frames()[std::size_t(step)];
            if (f.answer) {
                answers << QString::number(*f.answer);
                QVERIFY(
                    plain(m_view.narration()).contains(QStringLiteral(": %1 hit").arg(*f.answer)));
            }
        }
        QCOMPARE(answers, (QStringList{"3", "4", "3"}));
    }

    void predictModeStopsBeforeEachGetHits() {
        m_view.loadLesson(0);
        m_view.setPredictMode(true);
        QVERIFY(m_view.lessonPanel()->predictSwitch()->isChecked());
        for (int i = 0; i < 3; ++i) {
            m_view.stepForward();
        }
        QCOMPARE(m_view.currentStep(), 3);
        m_view.stepForward();  // step 4 is getHits(4): asks first
        QVERIFY(m_view.awaitingPrediction());
        QCOMPARE(m_view.currentStep(), 3);
        QVERIFY(m_view.predictQuestion().contains(QStringLiteral("getHits(4)")));
        m_view.stepForward();  // still waiting for the answer
        QCOMPARE(m_view.currentStep(), 3);
        m_view.submitPrediction(2);
        QVERIFY(!m_view.awaitingPrediction());
        QCOMPARE(m_view.currentStep(), 4);
        QVERIFY2(
            plain(m_view.narration()).contains(QStringLiteral("You said 2, but the answer is 3")),
            qPrintable(m_view.narration()));
        m_view.stepForward();  // hit(300)
        m_view.stepForward();  // getHits(300) asks again
        QVERIFY(m_view.awaitingPrediction());
        m_view.submitPrediction(4);
        QVERIFY(plain(m_view.narration()).contains(QStringLiteral("You said 4: right")));
        m_view.stepBack();
        m_view.stepForward();  // already answered: no second question
        QVERIFY(!m_view.awaitingPrediction());
        QCOMPARE(m_view.currentStep(), 6);
        m_view.setPredictMode(false);
    }

    void badInputIsMarkedAndTheLessonIsKept() {
        m_view.loadLesson(1);
        m_view.showStep(3);
        const std::size_t before = m_view.timeline().frames().size();
        const auto error =
            m_view.runOperations(QStringLiteral("hit 1\nhit two\n"), std::chrono::seconds{10});
        QVERIFY(error.has_value());
        QCOMPARE(error->line, 2);
        QCOMPARE(error->column, 5);
        QCOMPARE(m_view.timeline().frames().size(), before);
        QCOMPARE(m_view.currentStep(), 3);
        QVERIFY(m_view.lessonPanel()->errorText().contains(QStringLiteral("Line 2, column 5")));
        QCOMPARE(m_view.lessonPanel()->operationsText(), QStringLiteral("hit 1\nhit two\n"));

        QVERIFY(!m_view.runOperations(QStringLiteral("hit 1\nhit 2 x3\ngetHits 5"),
                                      std::chrono::seconds{5}));
        QVERIFY(m_view.lessonPanel()->errorText().isEmpty());
        QCOMPARE(m_view.timeline().window().count(), 5);
        QCOMPARE(m_view.lessonPanel()->window().count(), 5);
        QCOMPARE(m_view.lastStep(), 3);
        QCOMPARE(m_view.lessonPanel()->lessonId(), QStringLiteral("custom"));
    }

    void realWindowButtonRerunsTheLessonAtThreeHundred() {
        m_view.loadLesson(1);
        const auto operations = m_view.timeline().operations().size();
        QPushButton* real = nullptr;
        for (QPushButton* b : m_view.findChildren<QPushButton*>()) {
            if (b->text().contains(QStringLiteral("300"))) {
                real = b;
            }
        }
        QVERIFY(real != nullptr);
        real->click();
        QCOMPARE(m_view.timeline().window().count(), 300);
        QCOMPARE(m_view.timeline().operations().size(), operations);
        QCOMPARE(m_view.timeline().frames().back().ring.size(), std::size_t{300});
        QCOMPARE(m_view.currentStep(), 0);
    }

    void exportsTheFrameAndEveryStepAsPng() {
        m_view.loadLesson(0);
        m_view.showStep(7);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QString one = dir.filePath(QStringLiteral("frame.png"));
        QVERIFY2(m_view.exportCurrentFrame(one, &error), qPrintable(error));
        const QImage image(one);
        QCOMPARE(image.size(), QSize(1280, 800));
        // Not a blank picture: the board, the slots and the text use many colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY(colours.size() > 20);

        const QString all = dir.filePath(QStringLiteral("steps"));
        QCOMPARE(m_view.exportAllFrames(all, &error), m_view.lastStep() + 1);
        const QStringList files =
            QDir(all).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), m_view.lastStep() + 1);
        QCOMPARE(files.first(), QStringLiteral("example-step-000.png"));
        QCOMPARE(files.last(), QStringLiteral("example-step-007.png"));
        QCOMPARE(m_view.currentStep(), 7);
        QVERIFY(QImage(QDir(all).filePath(files.first())) !=
                QImage(QDir(all).filePath(files.last())));
    }

    void exportToAnUnwritablePlaceFailsWithAMessage() {
        QString error;
        QVERIFY(!m_view.exportCurrentFrame(QStringLiteral("/proc/no/such/dir/x.png"), &error));
        QVERIFY(error.contains(QStringLiteral("/proc/no/such/dir/x.png")));
    }

private:
    TeachView m_view;
};

QTEST_MAIN(TestTeachView)
#include "tst_teach_view.moc"
