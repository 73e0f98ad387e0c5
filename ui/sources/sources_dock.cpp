#include "ui/sources/sources_dock.h"

#include <QDir>
#include <QFileDialog>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>

#include "core/sources/follow_source.h"
#include "ui/sources/listener_status.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_status.h"
#include "ui/sources/sources_panel.h"

namespace hitcounter::ui {

SourcesDock::SourcesDock(SourceSession& session, QWidget* parent)
    : QDockWidget(tr("Sources"), parent), m_session(session), m_panel(new SourcesPanel) {
    setObjectName(QStringLiteral("sourcesDock"));
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("sourcesScroll"));
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_panel->sizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());
    setWidget(scroll);
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);

    connect(m_panel, &SourcesPanel::startRequested, this, &SourcesDock::startRequested);
    connect(m_panel, &SourcesPanel::stopRequested, this, [this] {
        Q_EMIT stopRequested();
        m_panel->showSpec(m_session.spec(), false);
    });
    connect(m_panel, &SourcesPanel::openTraceRequested, this, &SourcesDock::openTraceRequested);
    connect(m_panel, &SourcesPanel::replayKeyChanged, &m_session, &SourceSession::setReplayKey);
    connect(m_panel, &SourcesPanel::rateChanged, &m_session, &SourceSession::setRate);
    connect(m_panel, &SourcesPanel::patternChanged, &m_session, &SourceSession::setPattern);
    connect(m_panel, &SourcesPanel::speedChanged, &m_session, &SourceSession::setSpeed);
    connect(m_panel, &SourcesPanel::recordToggled, this, &SourcesDock::record);

    connect(&m_session, &SourceSession::stopped, this, [this] {
        m_panel->showSpec(m_session.spec(), false);  // "Start simulator", no listener figures
    });
    connect(&m_session, &SourceSession::specShown, m_panel, &SourcesPanel::showSpec);
    connect(&m_session, &SourceSession::recordingShown, m_panel, &SourcesPanel::showRecording);
}

void SourcesDock::record(bool on) {
    QString file;
    if (on) {
        file = QFileDialog::getSaveFileName(
            this, tr("Record to trace"),
            QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                .filePath(QStringLiteral("recording.csv")),
            tr("Trace CSV (*.csv)"));
    }
    if (on && file.isEmpty()) {
        m_panel->setRecordingChecked(false);  // the dialog was cancelled
        return;
    }
    if (!m_session.setRecording(file)) {
        m_panel->setRecordingChecked(false);
    }
}

void SourcesDock::showRunningFigures() {
    if (const FollowSource* follow = m_session.follow()) {
        m_panel->showFollowStats(followStatsText(*follow));
    }
    const SocketListener* listener = m_session.listener();
    m_panel->showListenerStats(listener ? listenerStatsText(*listener) : QString());
}

}  // namespace hitcounter::ui
