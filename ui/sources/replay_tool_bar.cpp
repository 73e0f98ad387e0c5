#include "ui/sources/replay_tool_bar.h"

#include "core/sources/replay_source.h"
#include "ui/sources/replay_bar.h"
#include "ui/sources/source_session.h"

namespace hitcounter::ui {

ReplayToolBar::ReplayToolBar(SourceSession& session, QWidget* parent)
    : QToolBar(tr("Replay"), parent), m_session(session), m_bar(new ReplayBar) {
    setObjectName(QStringLiteral("replayToolBar"));
    setMovable(false);
    addWidget(m_bar);
    hide();
    connect(m_bar, &ReplayBar::playRequested, this, [this](bool play) {
        if (ReplaySource* replay = m_session.replay()) {
            play ? replay->play() : replay->pause();
        }
    });
    connect(m_bar, &ReplayBar::seekRequested, &m_session, &SourceSession::seek);
    connect(m_bar, &ReplayBar::speedChanged, &m_session, &SourceSession::setReplaySpeed);
    connect(m_bar, &ReplayBar::loopToggled, &m_session, &SourceSession::setLoop);
    connect(&m_session, &SourceSession::replayProgress, m_bar, &ReplayBar::updateFrom);
    connect(&m_session, &SourceSession::stopped, this, &QWidget::hide);
    connect(&m_session, &SourceSession::specShown, this,
            [this](const SourceSpec& spec, bool running) {
                if (!running) {
                    return;
                }
                const bool replay = m_session.replay() != nullptr;
                setVisible(replay);
                if (replay) {
                    m_bar->setSpeed(spec.speed);
                    m_bar->setLoop(spec.loop);
                    m_bar->setClockTimes(m_session.timeMode() == TimeAxisMode::Clock);
                }
            });
}

}  // namespace hitcounter::ui
