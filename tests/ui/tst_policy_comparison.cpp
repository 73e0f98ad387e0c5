// PolicyComparison's table: the time per call is shown only when the engine could time it
// ("–" with the reason otherwise), its header says it is per call, and a policy stopped at
// the memory cap says why in the cell the user looks at. Fed by a real Engine.
#include <QTableWidget>
#include <QTest>

#include "core/engine/engine.h"
#include "ui/history_update.h"
#include "ui/policy_comparison.h"

using namespace hitcounter;
using hitcounter::ui::PolicyComparison;

namespace {

int columnNamed(const QTableWidget& table, const QString& name) {
    for (int c = 0; c < table.columnCount(); ++c) {
        if (table.horizontalHeaderItem(c)->text() == name) {
            return c;
        }
    }
    return -1;
}

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

void show(PolicyComparison& view, const Engine& e) {
    view.updateFrom(ui::HistoryUpdate{e.history(), 0, true}, e.snapshot());
}

}  // namespace

class TestPolicyComparison : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void timePerCallIsADashUntilItCanBeTimed() {
        Engine e;
        feedSeconds(e, 1, 5);
        PolicyComparison view;
        show(view, e);
        QTableWidget* table = view.table();
        const int ns = columnNamed(*table, QStringLiteral("ns/call"));
        QVERIFY(ns > 0);
        QVERIFY(table->horizontalHeaderItem(ns)->toolTip().contains(QStringLiteral("not per hit")));
        const int ring = rowNamed(*table, QStringLiteral("ring"));
        QVERIFY(ring >= 0);
        QCOMPARE(table->item(ring, ns)->text(), QStringLiteral("\u2013"));
        QVERIFY(table->item(ring, ns)->toolTip().contains(
            QStringLiteral("5 of %1 hit() calls").arg(Engine::kMinTimedCalls)));

        feedSeconds(e, 6, Timestamp(Engine::kMinTimedCalls) + 2);
        show(view, e);
        bool ok = false;
        table->item(ring, ns)->text().toDouble(&ok);
        QVERIFY2(ok, qPrintable(table->item(ring, ns)->text()));
        QVERIFY(table->item(ring, ns)->toolTip().isEmpty());
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
        const int ns = columnNamed(*table, QStringLiteral("ns/call"));
        const int naive = rowNamed(*table, QStringLiteral("naive"));
        QVERIFY(naive >= 0);
        QCOMPARE(table->item(naive, ns)->text(), QStringLiteral("stopped at cap"));
        for (int c = 0; c < table->columnCount(); ++c) {
            const QString tip = table->item(naive, c)->toolTip();
            QVERIFY2(tip.contains(QStringLiteral("memory cap")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("16 B for every hit() call")), qPrintable(tip));
        }
        QVERIFY(table->item(rowNamed(*table, QStringLiteral("ring")), 1)->toolTip().isEmpty());
    }
};

QTEST_MAIN(TestPolicyComparison)
#include "tst_policy_comparison.moc"
