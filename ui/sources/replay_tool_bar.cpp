#include "ui/sources/replay_tool_bar.h"

#include "core/sources/source_capabilities.h"
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
        if (Pausable* stream = m_session.pausable()) {
            play ? stream->play() : stream->pause();
        }
    });
    connect(m_bar, &ReplayBar::seekRequested, &m_session, &SourceSession::seek);
    connect(m_bar, &ReplayBar::speedChanged, this,
            [this](double speed) { editReplay([&](ReplaySpec& s) { s.speed = speed; }); });
    connect(m_bar, &ReplayBar::loopToggled, this,
            [this](bool loop) { editReplay([&](ReplaySpec& s) { s.loop = loop; }); });
    connect(&m_session, &SourceSession::replayProgress, m_bar, &ReplayBar::updateFrom);
    connect(&m_session, &SourceSession::stopped, this, &QWidget::hide);
    connect(&m_session, &SourceSession::specShown, this, [this](const SourceSpec&, bool running) {
        if (!running) {
            return;
        }
        const Seekable* stream = m_session.seekable();
        setVisible(stream != nullptr);
        if (stream != nullptr) {
            const SpeedControl* speed = m_session.speedControl();
            m_bar->setSpeed(speed ? speed->speed() : 1.0);
            m_bar->setLoop(stream->loop());
            m_bar->setClockTimes(m_session.timeMode() == TimeAxisMode::Clock);
        }
    });
}

template <class Change>
void ReplayToolBar::editReplay(Change change) {
    if (const auto* running = std::get_if<ReplaySpec>(&m_session.spec())) {
        ReplaySpec next = *running;
        change(next);
        m_session.edit(next);
    }
}

}  // namespace hitcounter::ui
