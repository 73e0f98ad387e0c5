// The teaching view in the application's themes, measured on its pixels offscreen: under the
// dark theme every painted panel (the ring, the queues, the pseudocode, the narration, the chart,
// the limiters, the Build tab's slots) has a dark board and text that reaches a contrast of 4.5
// (WCAG) against it; under the light theme the boards keep their light colour. Toggling Dark in
// the main window repaints an open teaching window, and the exports stay light for printing.
#include <QAction>
#include <QApplication>
#include <QHash>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <cmath>

#include "core/teach/lessons.h"
#include "tests/test_main.h"
#include "ui/common/theme.h"
#include "ui/teach/build_panel.h"
#include "ui/teach/code_panel.h"
#include "ui/teach/code_view.h"
#include "ui/teach/limiter_view.h"
#include "ui/teach/ring_view.h"
#include "ui/teach/sequence_view.h"
#include "ui/teach/step_chart.h"
#include "ui/teach/teach_files.h"
#include "ui/teach/teach_style.h"
#include "ui/teach/teach_view.h"
#include "ui/teach/transport_bar.h"
#include "ui/teach/variables_view.h"
#include "ui/window/main_window.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

// WCAG 2 relative luminance and contrast ratio.
double luminance(const QColor& c) {
    auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The most frequent colour in `r` of `image`: a panel's board.
QColor dominant(const QImage& image, const QRect& r) {
    QHash<QRgb, int> counts;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            ++counts[image.pixel(x, y) | 0xff000000u];
    QRgb best = 0;
    int most = -1;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > most) {
            most = it.value();
            best = it.key();
        }
    }
    return QColor::fromRgb(best);
}

// The colours of the text's glyph cores in `r`: of the pixels that stand out from `board`
// (contrast above 2, so not the board's outline or the window behind its rounded corners), the
// colours that make up at least 4% of them; anti-aliased edges spread over many colours.
QList<QColor> textColours(const QImage& image, const QRect& r, const QColor& board) {
    QHash<QRgb, int> counts;
    int total = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QRgb px = image.pixel(x, y) | 0xff000000u;
            if (contrast(QColor::fromRgb(px), board) > 2.0) {
                ++counts[px];
                ++total;
            }
        }
    QList<QColor> out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        if (it.value() * 25 >= total)
            out << QColor::fromRgb(it.key());
    return out;
}

struct Panel {
    QString name;
    QWidget* widget;
    QRect textArea;  // in the widget; a strip holding only text on the board
};

int lessonIndex(const char* id) {
    int index = 0;
    while (teach::lessons()[std::size_t(index)].id != id)
        ++index;
    return index;
}

// The board is dark (dark theme) or the light board the view always had (light theme); the
// text in the strip is there and reaches 4.5 against it.
void checkPanel(const Panel& panel, bool dark) {
    QVERIFY2(panel.widget->isVisible(), qPrintable(panel.name));
    const QImage image = panel.widget->grab().toImage();
    const QRect inside = image.rect().adjusted(6, 6, -6, -6);
    const QColor board = dominant(image, inside);
    if (dark) {
        QVERIFY2(luminance(board) < 0.03,
                 qPrintable(QStringLiteral("%1: board %2 is not dark (luminance %3)")
                                .arg(panel.name, board.name())
                                .arg(luminance(board))));
    } else {
        QVERIFY2(board == QColor(0xfb, 0xfa, 0xf6),
                 qPrintable(QStringLiteral("%1: board %2").arg(panel.name, board.name())));
    }
    const QRect strip = panel.textArea.intersected(image.rect());
    const QList<QColor> text = textColours(image, strip, board);
    QVERIFY2(!text.isEmpty(), qPrintable(panel.name + QStringLiteral(": no text found")));
    for (const QColor& c : text) {
        QVERIFY2(contrast(c, board) >= 4.5,
                 qPrintable(QStringLiteral("%1: text %2 on %3 has contrast %4")
                                .arg(panel.name, c.name(), board.name())
                                .arg(contrast(c, board), 0, 'f', 2)));
    }
}

}  // namespace

// checkPanel's QVERIFYs return from it: the test stops at the first panel that fails.
#define CHECK_PANEL(...)                \
    do {                                \
        checkPanel(__VA_ARGS__);        \
        if (QTest::currentTestFailed()) \
            return;                     \
    } while (false)

class TestTeachTheme : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { applyTheme(*qApp, themeNamed(QStringLiteral("light"))); }

    // Every text colour of the dark palette against every fill it is drawn on.
    void darkPaletteTextHasContrastOnItsFills() {
        const teachstyle::TeachPalette& c = teachstyle::darkColors();
        const struct {
            const char* name;
            QColor text;
            QColor back;
        } pairs[] = {
            {"ink on board", c.ink, c.board},
            {"softInk on board", c.softInk, c.board},
            {"ink on inWindow", c.ink, c.inWindow},
            {"inWindowInk on inWindow", c.inWindowInk, c.inWindow},
            {"inWindowInk on inWindowSoft", c.inWindowInk, c.inWindowSoft},
            {"inWindowInk on board", c.inWindowInk, c.board},
            {"inWindowEdge on board", c.inWindowEdge, c.board},
            {"staleInk on stale", c.staleInk, c.stale},
            {"ink on empty", c.ink, c.empty},
            {"softInk on empty", c.softInk, c.empty},
            {"ink on currentFill", c.ink, c.currentFill},
            {"softInk on currentFill", c.softInk, c.currentFill},
            {"currentInk on board", c.currentInk, c.board},
            {"current on board", c.current, c.board},
            {"removed on board", c.removed, c.board},
            {"removed on inWindow", c.removed, c.inWindow},
            {"removed on currentFill", c.removed, c.currentFill},
            {"removed on stale", c.removed, c.stale},
            {"removed on removedFill", c.removed, c.removedFill},
            {"ink on removedFill", c.ink, c.removedFill},
            {"ink on codeBlock", c.ink, c.codeBlock},
            {"softInk on codeBlock", c.softInk, c.codeBlock},
            {"badgeInk on inWindowEdge", c.badgeInk, c.inWindowEdge},
            {"badgeInk on removed", c.badgeInk, c.removed},
            {"otherSeries on board", c.otherSeries, c.board},
        };
        for (const auto& pair : pairs)
            QVERIFY2(contrast(pair.text, pair.back) >= 4.5,
                     qPrintable(QStringLiteral("%1: %2")
                                    .arg(QString::fromLatin1(pair.name))
                                    .arg(contrast(pair.text, pair.back), 0, 'f', 2)));
        QVERIFY(c.dark);
        QVERIFY(!teachstyle::lightColors().dark);
    }

    void panelsFollowTheTheme_data() {
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QSize>("size");
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)})
            for (const char* theme : {"dark", "light"})
                QTest::addRow("%s %dx%d", theme, size.width(), size.height())
                    << QString::fromLatin1(theme) << size;
    }
    void panelsFollowTheTheme() {
        QFETCH(QString, theme);
        QFETCH(QSize, size);
        const bool dark = theme == QLatin1String("dark");
        applyTheme(*qApp, themeNamed(theme));
        TeachView view;
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        // The example at its start: titles, the pseudocode (no line highlighted yet), the
        // narration.
        view.loadLesson(lessonIndex("example"));
        view.showStep(0);
        auto* ring = view.findChild<RingView*>(QStringLiteral("watchRing"));
        auto* code = view.findChild<CodeView*>();
        const QList<SequenceView*> queues = view.findChildren<SequenceView*>();
        QCOMPARE(queues.size(), 2);
        auto* narration = view.findChild<QWidget*>(QStringLiteral("narrationBox"));
        QVERIFY(narration);
        CHECK_PANEL({QStringLiteral("ring"), ring, QRect(0, 6, 360, 28)}, dark);
        CHECK_PANEL({QStringLiteral("pseudocode"), code, code->rect().adjusted(8, 8, -8, -8)},
                    dark);
        for (SequenceView* q : queues)
            CHECK_PANEL({QStringLiteral("queue"), q, QRect(0, 6, q->width(), 48)}, dark);
        CHECK_PANEL({QStringLiteral("narration"), narration,
                     QRect(8, 6, narration->width() * 6 / 10, narration->height() - 12)},
                    dark);

        // A getHits step: the narration's header, the operation and the answer.
        view.showStep(view.lastStep());
        CHECK_PANEL({QStringLiteral("narration at the end"), narration,
                     QRect(8, 6, narration->width() * 6 / 10, narration->height() - 12)},
                    dark);

        // The bytes lesson's chart: its caption.
        view.loadLesson(lessonIndex("bytes"));
        view.showStep(3);
        auto* chart = view.findChild<StepChart*>(QStringLiteral("watchChart"));
        CHECK_PANEL({QStringLiteral("chart"), chart, QRect(0, 2, chart->width() - 8, 20)}, dark);

        // A rate-limit lesson: the limiters' lanes, the title line of the first.
        view.loadLesson(lessonIndex("limit-burst"));
        view.showStep(3);
        auto* limits = view.findChild<LimiterView*>();
        // The first board's title (four boards in two columns: its decision badge, a filled
        // green, sits at the right of the half width).
        CHECK_PANEL({QStringLiteral("limiters"), limits, QRect(8, 6, limits->width() / 5, 24)},
                    dark);

        // The Build tab after a run that differs: its header line.
        view.loadLesson(lessonIndex("example"));
        view.showBuild(true);
        view.buildPanel()->setVariant(teach::RingVariant{teach::RingVariant::Compare::GreaterEqual,
                                                         teach::RingVariant::Index::ModW,
                                                         teach::RingVariant::Reset::SecondDiffers});
        view.buildPanel()->runOnLesson();
        SlotCompareView* slots = view.buildPanel()->compareView();
        QVERIFY(slots->step().has_value());
        CHECK_PANEL({QStringLiteral("build"), slots, QRect(0, 2, slots->width() / 2, 24)}, dark);

        // Issue 24: the transport's glyphs (the style's own icons were about 1.2:1 on the
        // dark theme) reach 4.5 on the bar, enabled; the Code tab's panels follow the theme.
        view.showBuild(false);
        view.showStep(2);
        const auto transport = view.findChild<TransportBar*>()->findChildren<QToolButton*>();
        QCOMPARE(transport.size(), 5);
        for (QToolButton* button : transport) {
            if (!button->isEnabled())
                continue;
            const QImage image = button->grab().toImage();
            const QColor back = dominant(image, image.rect());
            // The glyph's fill: the most frequent colour that stands out (its slanted edges
            // are anti-aliased into many lighter ones).
            QHash<QRgb, int> standing;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    if (contrast(image.pixelColor(x, y), back) > 2.0)
                        ++standing[image.pixel(x, y) | 0xff000000u];
            QVERIFY2(!standing.isEmpty(), qPrintable(button->toolTip()));
            QRgb fill = standing.begin().key();
            for (auto it = standing.cbegin(); it != standing.cend(); ++it)
                fill = it.value() > standing.value(fill) ? it.key() : fill;
            const QColor c = QColor::fromRgb(fill);
            QVERIFY2(contrast(c, back) >= 4.5,
                     qPrintable(QStringLiteral("%1: %2 on %3, %4")
                                    .arg(button->toolTip(), c.name(), back.name())
                                    .arg(contrast(c, back), 0, 'f', 2)));
        }
        view.showCode(true);
        auto* variables = view.codePanel()->variablesView();
        CHECK_PANEL({QStringLiteral("code fields"), variables, QRect(4, 4, 200, 22)}, dark);
    }

    // The Dark toggle of the main window reaches an open teaching window: it repaints, dark,
    // and light again when toggled back.
    void togglingDarkInTheMainWindowRepaintsTheTeachingWindow() {
        MainWindow window;
        window.setThemeName(QStringLiteral("light"));
        window.resize(1280, 720);
        window.show();
        QAction* teachAction = nullptr;
        QAction* darkAction = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->text() == QLatin1String("Teach"))
                teachAction = a;
            if (a->text() == QLatin1String("Dark"))
                darkAction = a;
        }
        QVERIFY(teachAction && darkAction);
        teachAction->trigger();
        auto* view = window.findChild<TeachView*>();
        QVERIFY(view);
        QVERIFY(QTest::qWaitForWindowExposed(view));
        auto* code = view->findChild<CodeView*>();
        auto* narration = view->findChild<QWidget*>(QStringLiteral("narrationBox"));
        const QRect codeText = code->rect().adjusted(8, 8, -8, -8);
        const QRect narrationText(8, 6, narration->width() * 6 / 10, narration->height() - 12);
        CHECK_PANEL({QStringLiteral("pseudocode, light"), code, codeText}, false);

        struct PaintCounter : QObject {
            int paints = 0;
            bool eventFilter(QObject*, QEvent* e) override {
                paints += e->type() == QEvent::Paint;
                return false;
            }
        } counter;
        view->findChild<RingView*>(QStringLiteral("watchRing"))->installEventFilter(&counter);
        QTest::qWait(50);
        counter.paints = 0;
        darkAction->trigger();
        QVERIFY(darkAction->isChecked());
        QVERIFY(QTest::qWaitFor([&] { return counter.paints > 0; }, 3000));
        CHECK_PANEL({QStringLiteral("pseudocode, dark"), code, codeText}, true);
        const auto windowColour = [view] {
            const QImage image = view->grab().toImage();
            return dominant(image, QRect(0, 0, 4, image.height()));
        };
        QVERIFY(QTest::qWaitFor([&] { return luminance(windowColour()) < 0.05; }, 3000));
        CHECK_PANEL({QStringLiteral("narration, dark"), narration, narrationText}, true);
        CHECK_PANEL({QStringLiteral("ring, dark"),
                     view->findChild<RingView*>(QStringLiteral("watchRing")), QRect(0, 6, 360, 28)},
                    true);

        counter.paints = 0;
        darkAction->trigger();
        QVERIFY(!darkAction->isChecked());
        QVERIFY(QTest::qWaitFor([&] { return counter.paints > 0; }, 3000));
        CHECK_PANEL({QStringLiteral("pseudocode, light again"), code, codeText}, false);
        CHECK_PANEL({QStringLiteral("narration, light again"), narration, narrationText}, false);
        QVERIFY(QTest::qWaitFor([&] { return luminance(windowColour()) > 0.5; }, 3000));
    }

    // Save frame and the handout are for slides and paper: light under the dark theme too, and
    // the window is dark again afterwards, with the application's palette and style sheet back.
    void exportsStayLightUnderTheDarkTheme() {
        applyTheme(*qApp, themeNamed(QStringLiteral("dark")));
        const QColor window = QApplication::palette().color(QPalette::Window);
        const QString sheet = qApp->styleSheet();
        QVERIFY(!sheet.isEmpty());
        TeachView view;
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.loadLesson(lessonIndex("example"));
        view.showStep(3);
        auto* code = view.findChild<CodeView*>();
        const QRect codeRect(code->mapTo(&view, QPoint(0, 0)), code->size());

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QString path = dir.filePath(QStringLiteral("frame.png"));
        QVERIFY2(view.files()->exportCurrentFrame(path, &error), qPrintable(error));
        const QImage frame(path);
        QCOMPARE(frame.size(), QSize(1280, 720));
        QCOMPARE(dominant(frame, codeRect.adjusted(6, 6, -6, -6)), QColor(0xfb, 0xfa, 0xf6));
        const QColor exportedWindow = dominant(frame, QRect(0, 0, 4, frame.height()));
        QVERIFY2(luminance(exportedWindow) > 0.5, qPrintable(exportedWindow.name()));

        // The handout's first page (the goal, the ring, the steps) is the same as under the
        // light theme; its text is dark on the white page.
        const QImage page = view.files()->handoutPage(0, QSize(1240, 1754));
        const QRect below(90, 90, 1060, 200);
        double darkest = 1;
        for (int y = below.top(); y <= below.bottom(); ++y)
            for (int x = below.left(); x <= below.right(); ++x)
                darkest = std::max(darkest, contrast(page.pixelColor(x, y), Qt::white));
        QVERIFY2(darkest >= 7, qPrintable(QString::number(darkest)));
        applyTheme(*qApp, themeNamed(QStringLiteral("light")));
        const QImage lightPage = view.files()->handoutPage(0, QSize(1240, 1754));
        QVERIFY(page.copy(below) == lightPage.copy(below));
        QVERIFY(page == lightPage);
        QCOMPARE(dominant(page, QRect(90, 300, 1060, 700)),
                 dominant(lightPage, QRect(90, 300, 1060, 700)));
        applyTheme(*qApp, themeNamed(QStringLiteral("dark")));

        QCOMPARE(view.currentStep(), 3);
        QCOMPARE(QApplication::palette().color(QPalette::Window), window);
        QCOMPARE(qApp->styleSheet(), sheet);
        CHECK_PANEL({QStringLiteral("pseudocode after the export"), code, QRect(0, 6, 300, 24)},
                    true);
    }
};

HITCOUNTER_TEST_MAIN(TestTeachTheme)
#include "tst_teach_theme.moc"
