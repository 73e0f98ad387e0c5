// PolicyComparison's table: the costs per hit and per getHits are the CostMeter's medians
// ("–" until measured), their headers and bars say how they were measured and give the
// spread, and a policy stopped at the memory cap says why in the cell the user looks at. Fed
// by a real Engine and a real measurement.
// Issue 15 (nothing cut off): in the real main window, offscreen at 1024x768, 1280x720 and
// 1920x1080, the comparison's and the ring histogram's layout elements get at least their
// minimum size (nothing squeezed), every policy has a readable label under its cost bars, no
// two tick labels overlap, and the ring histogram's legend clears its title and y
// label. Label boxes are computed as QCustomPlot places them (QCPAxisPainterPrivate).
#include <QApplication>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QToolTip>
#include <QtMath>

#include "core/engine/cost_meter.h"
#include "core/engine/engine.h"
#include "tests/test_main.h"
#include "tests/ui/table_columns.h"
#include "tests/ui/tick_labels.h"
#include "ui/common/history_update.h"
#include "ui/common/number_text.h"
#include "ui/monitor/policy_comparison.h"
#include "ui/monitor/ring_histogram.h"
#include "ui/plot/qcp.h"
#include "ui/window/main_window.h"

using namespace hitcounter;
using hitcounter::testing::columnNamed;
using hitcounter::testing::tickLabelProblem;
using hitcounter::ui::MainWindow;
using hitcounter::ui::PolicyComparison;
using hitcounter::ui::RingHistogram;

namespace {

int rowNamed(const QTableWidget& table, const QString& name) {
    for (int r = 0; r < table.rowCount(); ++r) {
        if (table.item(r, 0)->text() == name) {
            return r;
        }
    }
    return -1;
}

void feedSeconds(Engine& e, Timestamp from, Timestamp to) {
    for (Timestamp t = from; t <= to; ++t) {
        e.ingest(HitBatch{HitEvent{t, "k", "v", 1}});
    }
}

void show(PolicyComparison& view, const Engine& e, const PolicyCosts& costs = {}) {
    view.updateFrom(ui::HistoryUpdate{e.history(), 0, true}, e.snapshot(), costs);
}

// 400 seconds of clock time (unix seconds, so the time axes read hh:mm:ss), a few keys.
void pushClockStream(BatchQueue& queue) {
    constexpr Timestamp kStart = 1'764'596'000;
    for (Timestamp s = kStart; s < kStart + 400; ++s) {
        HitBatch batch;
        batch.push_back(HitEvent{s, "home", "visitor", Count(s % 13 + 1)});
        batch.push_back(HitEvent{s, "search", "visitor", 3});
        QVERIFY(queue.tryPush(std::move(batch)));
    }
}

// `w` at `size`, shown, with the clock-time stream counted and drawn.
bool showWithClockStream(MainWindow& w, QSize size) {
    w.resize(size);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) {
        return false;
    }
    pushClockStream(w.queue());
    w.renderNow();
    return true;
}

// The minimum outer size a layout gives `e` (QCPLayout::getFinalMinimumOuterSize).
QSize finalMinimumOuterSize(const QCPLayoutElement& e) {
    const QSize hint = e.minimumOuterSizeHint();
    QSize set = e.minimumSize();
    if (e.sizeConstraintRect() == QCPLayoutElement::scrInnerRect) {
        if (set.width() > 0) {
            set.rwidth() += e.margins().left() + e.margins().right();
        }
        if (set.height() > 0) {
            set.rheight() += e.margins().top() + e.margins().bottom();
        }
    }
    return {set.width() > 0 ? set.width() : hint.width(),
            set.height() > 0 ? set.height() : hint.height()};
}

// Every element of `plot`'s layout (legends and their items included) got at least its
// minimum size: QCPLayoutGrid squeezes rows in proportion when the plot is too short, and a
// squeezed legend cuts its text ("ri", "deq").
void verifyNothingSqueezed(QCustomPlot& plot) {
    int checked = 0;
    const QList<QCPLayoutElement*> elements = plot.plotLayout()->elements(true);
    for (QCPLayoutElement* e : elements) {
        if (e == nullptr || !e->visible() || qobject_cast<QCPLayoutInset*>(e) != nullptr) {
            continue;
        }
        const QSize minimum = finalMinimumOuterSize(*e);
        const QRect r = e->outerRect();
        QVERIFY2(r.width() >= minimum.width() && r.height() >= minimum.height(),
                 qPrintable(
                     QStringLiteral("%1 in %2: %3x%4, needs %5x%6")
                         .arg(QString::fromLatin1(e->metaObject()->className()), plot.objectName())
                         .arg(r.width())
                         .arg(r.height())
                         .arg(minimum.width())
                         .arg(minimum.height())));
        ++checked;
    }
    QVERIFY(checked >= 2);
}

// What is wrong with the titles of `plot`'s axis rects ("" if nothing): a title, centred over
// its axis as QCustomPlot draws it, that runs past its own rect into a neighbour or off the plot.
QString titleProblem(const QCustomPlot& plot) {
    for (QCPAxisRect* rect : plot.axisRects()) {
        const QCPAxis& top = *rect->axis(QCPAxis::atTop);
        const double width = QFontMetricsF(top.labelFont()).horizontalAdvance(top.label());
        const double centre = rect->left() + rect->width() / 2.0;
        const QRect outer = rect->outerRect();
        if (centre - width / 2 < std::max(outer.left(), 0) ||
            centre + width / 2 > std::min(outer.right() + 1, plot.width())) {
            return QStringLiteral("title '%1' (%2..%3) leaves its chart (%4..%5)")
                .arg(top.label())
                .arg(centre - width / 2)
                .arg(centre + width / 2)
                .arg(outer.left())
                .arg(outer.right() + 1);
        }
    }
    return {};
}

// The axis rects of the comparison plot, in layout order (count, error, memory, ns).
QList<QCPAxisRect*> comparisonRects(QCustomPlot& plot) {
    return plot.axisRects();
}

}  // namespace

class TestPolicyComparison : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
    }
    void costsAreADashUntilMeasuredThenTheMediansWithTheirSpread() {
        Engine e;
        feedSeconds(e, 1, 5);
        PolicyComparison view;
        show(view, e);
        QTableWidget* table = view.table();
        const int perHit = columnNamed(*table, QStringLiteral("ns per hit"));
        const int perGetHits = columnNamed(*table, QStringLiteral("ns per getHits"));
        QVERIFY(perHit > 0 && perGetHits > 0);
        const int ring = rowNamed(*table, QStringLiteral("ring"));
        QVERIFY(ring >= 0);
        QCOMPARE(table->item(ring, perHit)->text(), QStringLiteral("\u2013"));
        QCOMPARE(table->item(ring, perGetHits)->text(), QStringLiteral("\u2013"));
        QVERIFY(table->item(ring, perHit)->toolTip().contains(QStringLiteral("Not measured yet")));

        CostMeter::Stream stream;
        for (Timestamp t = 1; t <= 3000; ++t) {
            stream.emplace_back(t / 3, Count(1));
        }
        const PolicyCosts costs = CostMeter::measure(stream, e.options());
        show(view, e, costs);
        for (const PolicyCost& cost : costs.policies) {
            const int row = rowNamed(*table, QString::fromStdString(cost.name));
            QVERIFY(row >= 0);
            bool ok = false;
            const double shownHit = table->item(row, perHit)->text().remove(',').toDouble(&ok);
            QVERIFY2(ok, qPrintable(table->item(row, perHit)->text()));
            QVERIFY(std::abs(shownHit - cost.nsPerHit.median) <=
                    0.05 * cost.nsPerHit.median + 0.01);
            const double shownGet = table->item(row, perGetHits)->text().remove(',').toDouble(&ok);
            QVERIFY2(ok, qPrintable(table->item(row, perGetHits)->text()));
            QVERIFY(std::abs(shownGet - cost.nsPerGetHits.median) <=
                    0.05 * cost.nsPerGetHits.median + 0.01);
            QVERIFY2(table->item(row, perHit)
                         ->toolTip()
                         .contains(QStringLiteral("median of %1 samples").arg(CostMeter::kSamples)),
                     qPrintable(table->item(row, perHit)->toolTip()));
        }
        const QString how = table->horizontalHeaderItem(perGetHits)->toolTip();
        for (const char* says : {"fresh instance", "median", "not summed per second",
                                 "never on the GUI thread", "getHits calls at the head"}) {
            QVERIFY2(how.contains(QLatin1String(says)), qPrintable(how));
        }
    }

    void aPolicyStoppedAtTheCapSaysWhy() {
        EngineOptions options;
        options.policies = {"naive"};
        options.policyMemoryCap = 4096;
        Engine e(options);
        feedSeconds(e, 1, 600);
        PolicyComparison view;
        show(view, e);
        QTableWidget* table = view.table();
        const int memory = columnNamed(*table, QStringLiteral("memory"));
        const int naive = rowNamed(*table, QStringLiteral("naive"));
        QVERIFY(naive >= 0);
        QCOMPARE(table->item(naive, memory)->text(), QStringLiteral("stopped at cap"));
        for (int c = 0; c < table->columnCount(); ++c) {
            const QString tip = table->item(naive, c)->toolTip();
            QVERIFY2(tip.contains(QStringLiteral("memory cap")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("16 B for every hit() call")), qPrintable(tip));
        }
        QVERIFY(table->item(rowNamed(*table, QStringLiteral("ring")), 1)->toolTip().isEmpty());
    }

    // The table is the legend: a click on a policy's name hides its lines and bar, which stay
    // hidden through the next frames until another click shows them.
    void aClickOnAPolicysNameHidesItUntilClickedAgain() {
        Engine e;
        feedSeconds(e, 1, 20);
        PolicyComparison view;
        view.resize(1000, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        show(view, e);
        QTableWidget* table = view.table();
        const int deque = rowNamed(*table, QStringLiteral("deque"));
        QVERIFY(deque > 0);
        QTableWidgetItem* name = table->item(deque, 0);
        QVERIFY(view.countGraph(deque)->visible());
        auto click = [&] {
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                              table->visualItemRect(name).center());
        };
        click();
        QVERIFY(!view.policyShown(QStringLiteral("deque")));
        feedSeconds(e, 21, 30);
        show(view, e);  // a frame: the count line used to come back here
        QVERIFY(!view.countGraph(deque)->visible());
        QVERIFY(name->font().strikeOut());
        int hidden = 0;
        for (int i = 0; i < view.plot()->plottableCount(); ++i) {
            hidden += view.plot()->plottable(i)->visible() ? 0 : 1;
        }
        QCOMPARE(hidden, 7);  // its count, error and memory lines, its two bars and their spreads
        QVERIFY(view.countGraph(0)->visible());
        click();
        show(view, e);
        QVERIFY(view.countGraph(deque)->visible());
        QVERIFY(!name->font().strikeOut());
    }

    void windowSizes_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void comparisonAndRingAreNotSqueezed_data() { windowSizes_data(); }
    void comparisonAndRingAreNotSqueezed() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showWithClockStream(w, size));
        verifyNothingSqueezed(*w.comparison()->plot());
        if (QTest::currentTestFailed()) {
            return;
        }
        verifyNothingSqueezed(*w.ringHistogram());
    }

    // The policy table never scrolls sideways: at 1024 px the error columns give way (named in
    // the policy header's tooltip); the policy, count, memory and cost columns always show
    // and no shown cell is cut.
    void thePolicyTableFitsWithoutScrollingSideways_data() { windowSizes_data(); }
    void thePolicyTableFitsWithoutScrollingSideways() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showWithClockStream(w, size));
        QTableWidget* table = w.comparison()->table();
        QVERIFY(table->isVisible());
        // (The scroll bar follows the columns after the view's delayed layout.)
        QString widths;
        for (int c = 0; c < table->columnCount(); ++c) {
            widths += QStringLiteral(" %1%2")
                          .arg(table->columnWidth(c))
                          .arg(table->isColumnHidden(c) ? QStringLiteral("h") : QString());
        }
        QTRY_VERIFY2(!table->horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("the table (%1 px) scrolls sideways:%2")
                                    .arg(table->width())
                                    .arg(widths)));
        int hidden = 0;
        for (int c = 0; c < table->columnCount(); ++c) {
            const QString header = table->horizontalHeaderItem(c)->text();
            if (table->isColumnHidden(c)) {
                ++hidden;
                QVERIFY2(header.startsWith(QStringLiteral("error")), qPrintable(header));
                QVERIFY2(table->horizontalHeaderItem(0)->toolTip().contains(header),
                         qPrintable(table->horizontalHeaderItem(0)->toolTip()));
                continue;
            }
            for (int row = 0; row < table->rowCount(); ++row) {
                QVERIFY2(hitcounter::ui::cellTextFits(*table, row, c),
                         qPrintable(header + QStringLiteral(": ") + table->item(row, c)->text()));
            }
        }
        if (size.width() >= 1280) {
            QCOMPARE(hidden, 0);  // room for every column from 1280 px
        }
    }

    // Issue 23: costs refreshed every few seconds (a naive getHits of "162" ns, then
    // "123,457", then "162" again) neither hide and show the error columns nor move the other
    // columns: a column
    // keeps the most room its figures have needed until the policies change.
    void figuresThatChangeEveryRefreshNeitherHideNorMoveColumns_data() {
        QTest::addColumn<int>("width");
        for (int width = 640; width <= 1040; width += 40) {
            QTest::addRow("%d px", width) << width;
        }
    }
    void figuresThatChangeEveryRefreshNeitherHideNorMoveColumns() {
        QFETCH(int, width);
        Engine e;
        feedSeconds(e, 1, 20);
        PolicyComparison view;
        view.resize(width, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto costsOf = [&e](double ns) {
            PolicyCosts costs;
            costs.refresh = 1;
            for (const auto& policy : e.snapshot().policies) {
                costs.policies.push_back(
                    PolicyCost{policy.name, {ns, ns, ns}, {ns, ns, ns}, CostMeter::kSamples});
            }
            return costs;
        };
        QTableWidget* table = view.table();
        const auto columns = [table] {
            QStringList shown;
            for (int c = 0; c < table->columnCount(); ++c) {
                shown << (table->isColumnHidden(c) ? QStringLiteral("hidden")
                                                   : QString::number(table->columnWidth(c)));
            }
            return shown.join(QLatin1Char(' '));
        };
        show(view, e, costsOf(123456.7));
        QApplication::processEvents();
        const QString wide = columns();
        for (double ns : {1.0, 162.0, 123456.7, 0.5}) {
            show(view, e, costsOf(ns));
            QApplication::processEvents();
            QCOMPARE(columns(), wide);
        }
        // Wider figures still get their room at once.
        show(view, e, costsOf(987654321.0));
        QApplication::processEvents();
        const int perHit = columnNamed(*table, QStringLiteral("ns per hit"));
        QVERIFY(hitcounter::ui::cellTextFits(*table, 0, perHit));
    }

    void everyPolicyHasAReadableTimePerCallLabel_data() { windowSizes_data(); }
    void everyPolicyHasAReadableTimePerCallLabel() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showWithClockStream(w, size));
        QCustomPlot& plot = *w.comparison()->plot();
        const QList<QCPAxisRect*> rects = comparisonRects(plot);
        QCOMPARE(rects.size(), 4);
        const QCPAxis& policyAxis = *rects[3]->axis(QCPAxis::atBottom);
        QStringList labels;
        const QString problem = tickLabelProblem(plot, policyAxis, labels, true);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QTableWidget* table = w.comparison()->table();
        QCOMPARE(table->rowCount(), 7);
        QCOMPARE(labels.size(), table->rowCount());
        for (int p = 0; p < table->rowCount(); ++p) {
            // Its whole name, under its own bar.
            const QString name = table->item(p, 0)->text();
            QCOMPARE(labels[p], name);
            // Hovering its bar names the policy and its figure.
            const QPoint bar(int(policyAxis.coordToPixel(p)), rects[3]->bottom() - 2);
            QHelpEvent help(QEvent::ToolTip, bar, plot.mapToGlobal(bar));
            QApplication::sendEvent(&plot, &help);
            QVERIFY2(QToolTip::text().startsWith(name + QLatin1Char(':')),
                     qPrintable(QToolTip::text()));
        }
    }

    // Every chart's title stays over its chart, before the costs are measured and after: the
    // cost chart's "ns per hit ▮ · per getHits ▨" ran into the error chart at 1024 px.
    void everyChartTitleStaysOverItsChart_data() { windowSizes_data(); }
    void everyChartTitleStaysOverItsChart() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showWithClockStream(w, size));
        QCustomPlot& plot = *w.comparison()->plot();
        Engine e;
        feedSeconds(e, 1, 400);
        show(*w.comparison(), e);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QString problem = titleProblem(plot);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        CostMeter::Stream stream;
        for (Timestamp t = 1; t <= 3000; ++t) {
            stream.emplace_back(t / 3, Count(1));
        }
        show(*w.comparison(), e, CostMeter::measure(stream, e.options()));
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QString title = plot.axisRects()[3]->axis(QCPAxis::atTop)->label();
        QVERIFY2(title.contains(QStringLiteral("getHits")), qPrintable(title));
        problem = titleProblem(plot);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void timeTickLabelsDoNotOverlap_data() { windowSizes_data(); }
    void timeTickLabelsDoNotOverlap() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showWithClockStream(w, size));
        QCustomPlot& plot = *w.comparison()->plot();
        const QList<QCPAxisRect*> rects = comparisonRects(plot);
        QCOMPARE(rects.size(), 4);
        QStringList labels;
        for (int i = 0; i < 3; ++i) {
            const QString problem =
                tickLabelProblem(plot, *rects[i]->axis(QCPAxis::atBottom), labels, false);
            QVERIFY2(problem.isEmpty(),
                     qPrintable(QStringLiteral("plot %1: %2").arg(i).arg(problem)));
            QVERIFY2(!labels.isEmpty(), qPrintable(QString::number(i)));
        }
        RingHistogram& ring = *w.ringHistogram();
        const QString problem = tickLabelProblem(ring, *ring.xAxis, labels, false);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(!labels.isEmpty());
    }

    void ringLegendClearsTitleAndAxisLabel_data() { windowSizes_data(); }
    void ringLegendClearsTitleAndAxisLabel() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showWithClockStream(w, size));
        RingHistogram& ring = *w.ringHistogram();
        QVERIFY(ring.legend && ring.legend->visible());
        const QRect legend = ring.legend->outerRect();
        QVERIFY(ring.rect().contains(legend));
        QCPTextElement* title = nullptr;
        for (QCPLayoutElement* e : ring.plotLayout()->elements(true)) {
            if (auto* text = qobject_cast<QCPTextElement*>(e)) {
                title = text;
            }
        }
        QVERIFY(title);
        QVERIFY2(!legend.intersects(title->outerRect()),
                 qPrintable(QStringLiteral("legend %1,%2 %3x%4, title ends at y %5")
                                .arg(legend.x())
                                .arg(legend.y())
                                .arg(legend.width())
                                .arg(legend.height())
                                .arg(title->outerRect().bottom())));
        // The y axis' label and tick labels: the axis rect's left margin.
        const QRect outer = ring.axisRect()->outerRect();
        const QRect inner = ring.axisRect()->rect();
        const QRect yLabels(outer.left(), inner.top(), inner.left() - outer.left(), inner.height());
        QVERIFY2(!legend.intersects(yLabels),
                 qPrintable(QStringLiteral("legend from x %1, y labels until x %2")
                                .arg(legend.left())
                                .arg(yLabels.right())));
        for (int i = 0; i < ring.legend->itemCount(); ++i) {
            if (ring.legend->item(i) == nullptr) {
                continue;  // an empty cell of a legend wrapped onto two lines
            }
            const QRect item = ring.legend->item(i)->outerRect();
            QVERIFY(ring.rect().contains(item));
            QVERIFY2(item.height() >= QFontMetrics(ring.legend->font()).height(),
                     qPrintable(QString::number(item.height())));
        }
    }
};

HITCOUNTER_TEST_MAIN(TestPolicyComparison)
#include "tst_policy_comparison.moc"
