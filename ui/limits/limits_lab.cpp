#include "ui/limits/limits_lab.h"

#include <QDateTime>
#include <stdexcept>

#include "ui/limits/limits_view.h"
#include "ui/plot/display_zone.h"
#include "ui/sources/source_session.h"

namespace hitcounter::ui {

LimitsLab::LimitsLab(LimitsView& view, EngineWorker& worker, SourceSession& session,
                     QObject* parent)
    : QObject(parent), m_view(view), m_worker(worker), m_session(session) {
    connect(&m_view, &LimitsView::optionsRequested, this,
            [this](const LimitsOptions& requested) { apply(requested); });
    connect(&m_session, &SourceSession::started, this, [this] {
        if (m_worker.limitsOptions().enabled) {
            m_view.setRestartNote(tr("The lab restarted with the source, from its start."));
        }
    });
}

bool LimitsLab::apply(const LimitsOptions& options) {
    try {
        m_worker.setLimits(options);
    } catch (const std::invalid_argument& e) {
        Q_EMIT errorOccurred(tr("Rate limits: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_view.showOptions(options);
    QString note;
    if (!options.enabled) {
        note = tr("The lab is off.");
    } else if (const std::optional<Timestamp> now = m_session.rerunReplay()) {
        note = tr("Replay: the lab was re-run from the trace's start to %1 s by a fast-forward "
                  "(a seek), so it equals a run of the whole trace so far.")
                   .arg(*now);
    } else if (m_session.source()) {
        const qint64 wall = QDateTime::currentSecsSinceEpoch();
        note = tr("Live source: the lab restarted at %1 with these settings; earlier traffic "
                  "is not replayed into it.")
                   .arg(shownZone().format(wall, QStringLiteral("hh:mm:ss ")) +
                        shownZone().offsetName(wall));
    } else {
        note = tr("The lab starts with the next source.");
    }
    m_view.setRestartNote(note);
    return true;
}

void LimitsLab::opened() {
    if (!m_worker.limitsOptions().enabled) {
        apply(m_view.requestedOptions());
    }
}

}  // namespace hitcounter::ui
