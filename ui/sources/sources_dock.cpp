#include "ui/sources/sources_dock.h"

#include <QDir>
#include <QFileDialog>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>

#include "ui/sources/running_source.h"
#include "ui/sources/source_session.h"
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
    connect(m_panel, &SourcesPanel::edited, &m_session, &SourceSession::edit);
    connect(m_panel, &SourcesPanel::recordToggled, this, &SourcesDock::record);

    connect(&m_session, &SourceSession::stopped, this, [this] {
        m_panel->showSpec(m_session.spec(), false);  // "Start simulator", no figures
    });
    connect(&m_session, &SourceSession::specShown, m_panel, &SourcesPanel::showSpec);
    connect(&m_session, &SourceSession::specEdited, m_panel, &SourcesPanel::keepSpec);
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
    if (const RunningSource* running = m_session.running()) {
        m_panel->showFigures(running->figures());
    }
}

}  // namespace hitcounter::ui
