#include "ui/window/window_status.h"

#include <QActionGroup>
#include <QLabel>
#include <QMenu>
#include <QStatusBar>
#include <QToolButton>
#include <algorithm>

#include "ui/common/number_text.h"
#include "ui/common/theme.h"

namespace hitcounter::ui {

namespace {
// The label's own tip, then the exact figure.
void showFigure(QLabel& label, const QString& text, const QString& exact) {
    if (!label.property("tip").isValid()) {
        label.setProperty("tip", label.toolTip());
    }
    label.setText(text);
    label.setToolTip(label.property("tip").toString() + exact);
}
}  // namespace

WindowStatus::WindowStatus(QStatusBar& bar) : QObject(&bar), m_bar(bar) {
    m_source = new QLabel;
    m_source->setObjectName(QStringLiteral("statusSource"));
    m_source->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_source->setMinimumWidth(60);
    m_source->setContentsMargins(6, 0, 6, 0);
    m_bar.addWidget(m_source, 1);
    m_paused = addFigure(QStringLiteral("statusPaused"),
                         tr("The views are frozen; counting goes on (Space resumes)"));
    m_paused->setText(tr("PAUSED"));
    m_paused->setStyleSheet(
        QStringLiteral("QLabel { font-weight: bold; color: %1; }").arg(alarmColor().name()));
    m_paused->hide();
    m_rate = addFigure(QStringLiteral("statusRate"), tr("Hits ingested per second of wall time"));
    m_totals = addFigure(QStringLiteral("statusTotals"),
                         tr("Hits in the window now / all hits since the counters started"));
    m_bad =
        addFigure(QStringLiteral("statusBad"), tr("Malformed lines or rows the source skipped"));
    m_dropped = addFigure(QStringLiteral("statusDropped"),
                          tr("Hits dropped because the queue to the engine was full"));
    m_late = addFigure(QStringLiteral("statusLate"),
                       tr("Hits older than the newest second: counted if still inside the "
                          "window, dropped if older than the window"));
    m_zone = makeZoneButton();
    m_bar.addPermanentWidget(m_zone);
}

QLabel* WindowStatus::addFigure(const QString& name, const QString& tip) {
    auto* label = new QLabel;
    label->setObjectName(name);
    label->setToolTip(tip);
    label->setContentsMargins(6, 0, 6, 0);
    m_bar.addPermanentWidget(label);
    return label;
}

QToolButton* WindowStatus::makeZoneButton() {
    auto* button = new QToolButton;
    button->setObjectName(QStringLiteral("statusZone"));
    button->setAutoRaise(true);
    button->setPopupMode(QToolButton::InstantPopup);
    auto* zones = new QMenu(button);
    auto* group = new QActionGroup(zones);
    for (const auto& [choice, text] :
         {std::pair{ZoneChoice::Local, tr("Local time")}, std::pair{ZoneChoice::Utc, tr("UTC")},
          std::pair{ZoneChoice::Log, tr("The log's own offset")}}) {
        QAction* action = zones->addAction(text);
        action->setCheckable(true);
        action->setData(int(choice));
        action->setObjectName(QStringLiteral("zone_") + zoneChoiceName(choice));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, choice] { Q_EMIT zoneChosen(choice); });
    }
    button->setMenu(zones);
    return button;
}

void WindowStatus::show(const StatusFigures& f) {
    // A temporary message hides the source's text; QStatusBar does so itself only for a window
    // already shown (the first "Started ..." came before show() and was drawn over it).
    m_source->setVisible(m_bar.currentMessage().isEmpty());
    const int room = std::max(0, m_source->width() - 12);
    m_source->setText(m_source->fontMetrics().elidedText(f.source, Qt::ElideMiddle, room));
    m_source->setToolTip(tr("The running source: %1").arg(f.source));
    m_paused->setVisible(f.paused);
    showFigure(*m_rate, tr("ingest %1 hits/s").arg(humanNumber(f.ingestRate, 0)), QString());
    showFigure(
        *m_totals,
        tr("window %1 · total %2").arg(compactCount(f.windowCount), compactCount(f.totalHits)),
        tr("\nwindow %1, total %2").arg(exactCount(f.windowCount), exactCount(f.totalHits)));
    showFigure(*m_bad, tr("bad lines %1").arg(compactCount(f.badLines)),
               tr("\n%1 bad lines").arg(exactCount(f.badLines)));
    showFigure(*m_dropped, tr("dropped %1").arg(compactCount(f.dropped)),
               tr("\n%1 dropped").arg(exactCount(f.dropped)));
    m_late->setText(
        tr("late %1 · too late %2").arg(compactCount(f.lateHits), compactCount(f.droppedLate)));
}

void WindowStatus::showZone(const DisplayZone& zone, ZoneChoice choice, Timestamp at) {
    m_zone->setText(zone.shortLabel(at));
    m_zone->setToolTip(
        tr("Every time is shown in %1%2.\nClick to show UTC, local time or the log's own "
           "offset (--time-zone utc|local|log).")
            .arg(zone.label(at),
                 zone.note.isEmpty() ? QString() : QStringLiteral(":\n") + zone.note));
    for (QAction* action : m_zone->menu()->actions()) {
        action->setChecked(action->data().toInt() == int(choice));
    }
}

}  // namespace hitcounter::ui
