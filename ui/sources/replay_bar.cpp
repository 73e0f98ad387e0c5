#include "ui/sources/replay_bar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProxyStyle>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolTip>
#include <algorithm>

#include "ui/plot/display_zone.h"
#include "ui/sources/time_target.h"

namespace hitcounter::ui {

namespace {
// A left click on the groove jumps to the click (then seeks on release) instead of a page.
class JumpToClickStyle : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;
    int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                  QStyleHintReturn* returnData) const override {
        if (hint == QStyle::SH_Slider_AbsoluteSetButtons) {
            return int(Qt::LeftButton | Qt::MiddleButton);
        }
        return QProxyStyle::styleHint(hint, option, widget, returnData);
    }
};
}  // namespace

QString replayStateText(const ReplayProgress& progress, bool paused) {
    if (paused && (progress.state == ReplayState::Playing || progress.state == ReplayState::Idle)) {
        return ReplayBar::tr("paused");
    }
    if (progress.state != ReplayState::Loading && !progress.first) {
        return ReplayBar::tr("empty");
    }
    const std::string_view state = replayStateName(progress.state);
    return QString::fromUtf8(state.data(), qsizetype(state.size()));
}

Timestamp replayPositionInTrace(const ReplayProgress& progress, Timestamp now, bool looping) {
    const Timestamp first = *progress.first;
    const Timestamp last = *progress.last;
    if (progress.state == ReplayState::Ended) {
        return last;
    }
    if (now < first) {
        return now;
    }
    if (looping) {
        // With loop, time keeps growing past the end: the position within the trace.
        return first + (now - first) % (last - first + 1);
    }
    return std::min(now, last);
}

ReplayBar::ReplayBar(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("replayBar"));
    m_play = new QPushButton(tr("Pause"));
    m_play->setObjectName(QStringLiteral("replayPlay"));
    m_play->setToolTip(tr("Play or pause the replay"));
    connect(m_play, &QPushButton::clicked, this, [this] {
        if (!m_ended) {
            Q_EMIT playRequested(m_paused);
            return;
        }
        Q_EMIT seekRequested(m_first);
        if (m_paused) {
            Q_EMIT playRequested(true);
        }
    });
    m_seek = new QSlider(Qt::Horizontal);
    m_seek->setObjectName(QStringLiteral("replaySeek"));
    m_seek->setToolTip(
        tr("Trace time: drag or click to seek; every view is rebuilt exactly as "
           "it was at that second"));
    m_seek->setEnabled(false);
    auto* style = new JumpToClickStyle;
    style->setParent(m_seek);
    m_seek->setStyle(style);
    connect(m_seek, &QSlider::sliderReleased, this,
            [this] { Q_EMIT seekRequested(Timestamp(m_seek->value())); });
    connect(m_seek, &QSlider::actionTriggered, this, [this](int action) {
        if (action != QAbstractSlider::SliderMove) {
            Q_EMIT seekRequested(Timestamp(m_seek->sliderPosition()));
        }
    });
    m_goTo = new QLineEdit;
    m_goTo->setObjectName(QStringLiteral("replayGoTo"));
    m_goTo->setPlaceholderText(tr("go to: 06:55, -15m"));
    m_goTo->setClearButtonEnabled(true);
    m_goTo->setMaximumWidth(170);
    m_goTo->setToolTip(
        tr("Go to a time (Enter): a clock time in the zone shown (06:55:30), a date and time "
           "(2009-04-22 06:55, with Z or +12:00 for another offset), a step from the current "
           "time (-15m, +30s, -1h30m) or unix seconds; trace times: seconds (1200) or a step"));
    m_goTo->setEnabled(false);
    connect(m_goTo, &QLineEdit::returnPressed, this, &ReplayBar::goToTyped);
    m_speed = new QComboBox;
    m_speed->setObjectName(QStringLiteral("replaySpeed"));
    for (double s : {0.1, 0.5, 1.0, 2.0, 10.0, 100.0, 1000.0}) {
        m_speed->addItem(tr("%1×").arg(s), s);
    }
    m_speed->setCurrentIndex(m_speed->findData(1.0));
    m_speed->setToolTip(tr("Replay speed against the wall clock"));
    connect(m_speed, &QComboBox::activated, this,
            [this](int i) { Q_EMIT speedChanged(m_speed->itemData(i).toDouble()); });
    m_loop = new QCheckBox(tr("Loop"));
    m_loop->setObjectName(QStringLiteral("replayLoop"));
    m_loop->setToolTip(tr("Start again at the end (time keeps moving forward)"));
    connect(m_loop, &QCheckBox::toggled, this, &ReplayBar::loopToggled);
    m_time = new QLabel;
    m_time->setObjectName(QStringLiteral("replayTime"));
    m_time->setMinimumWidth(170);
    m_time->setToolTip(tr("Current trace time / the trace's last second"));
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("replayState"));
    m_state->setToolTip(tr("Replay state"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(new QLabel(tr("<b>Replay</b>")));
    layout->addWidget(m_play);
    layout->addWidget(m_seek, 1);
    layout->addWidget(m_time);
    layout->addWidget(m_goTo);
    layout->addWidget(m_speed);
    layout->addWidget(m_loop);
    layout->addWidget(m_state);
}

void ReplayBar::updateFrom(const ReplayProgress& progress, Timestamp now, bool paused) {
    m_paused = paused;
    const bool hits = progress.first && progress.last;
    m_ended = hits && progress.state == ReplayState::Ended;
    const bool live = progress.state == ReplayState::Idle ||
                      progress.state == ReplayState::Loading ||
                      progress.state == ReplayState::Playing;
    if (m_ended) {
        m_play->setText(tr("Replay from start"));
        m_play->setToolTip(tr("Replay the trace again from its first second"));
    } else {
        m_play->setText(paused || !live ? tr("Play") : tr("Pause"));
        m_play->setToolTip(tr("Play or pause the replay"));
    }
    // Nothing to play: an empty trace (no hit), a failed or a stopped replay.
    m_play->setEnabled(m_ended || live);
    m_state->setText(replayStateText(progress, paused));
    if (!hits) {
        const bool loading =
            progress.state == ReplayState::Loading || progress.state == ReplayState::Idle;
        m_time->setText(loading ? tr("loading %L1 rows").arg(progress.rows)
                                : tr("no hits in the trace"));
        m_seek->setEnabled(false);
        m_goTo->setEnabled(false);
        m_hasTrace = false;
        return;
    }
    m_first = *progress.first;
    m_last = *progress.last;
    m_hasTrace = true;
    m_seek->setEnabled(true);
    m_goTo->setEnabled(true);
    if (m_seek->minimum() != int(*progress.first) || m_seek->maximum() != int(*progress.last)) {
        const QSignalBlocker block(m_seek);
        m_seek->setRange(int(*progress.first), int(*progress.last));
        m_seek->setPageStep(std::max(1, int((*progress.last - *progress.first) / 20)));
    }
    const Timestamp inTrace =
        replayPositionInTrace(progress, now, m_loop->isChecked() || progress.loops > 0);
    m_position = inTrace;
    if (!m_seek->isSliderDown()) {
        const QSignalBlocker block(m_seek);
        m_seek->setValue(int(inTrace));
    }
    if (m_clockTimes) {
        // In the zone shown, named; the end's date only where it is another day.
        const DisplayZone& zone = shownZone();
        const bool sameDay = zone.at(inTrace).date() == zone.at(*progress.last).date();
        m_time->setText(
            tr("%1 / %2 %3")
                .arg(zone.format(inTrace),
                     zone.format(*progress.last, sameDay ? QStringLiteral("hh:mm:ss")
                                                         : QStringLiteral("yyyy-MM-dd hh:mm:ss")),
                     zone.offsetName(inTrace)));
        m_time->setToolTip(tr("t = %1 s / %2 s (unix seconds); times in %3")
                               .arg(inTrace)
                               .arg(*progress.last)
                               .arg(zone.label(inTrace)));
    } else {
        m_time->setText(tr("t = %1 s / %2 s").arg(inTrace).arg(*progress.last));
    }
}

void ReplayBar::goToTyped() {
    if (!m_hasTrace) {
        return;
    }
    const auto target = readTimeTarget(m_goTo->text(), m_position, m_clockTimes, shownZone());
    if (const auto* problem = std::get_if<QString>(&target)) {
        QToolTip::showText(m_goTo->mapToGlobal(QPoint(0, 0)), *problem, m_goTo);
        Q_EMIT goToRefused(*problem);
        return;
    }
    m_goTo->selectAll();  // the next step replaces it, or Enter repeats it
    Q_EMIT seekRequested(std::clamp(std::get<Timestamp>(target), m_first, m_last));
}

void ReplayBar::setSpeed(double speed) {
    const int i = m_speed->findData(speed);
    if (i >= 0) {
        m_speed->setCurrentIndex(i);
    }
}

void ReplayBar::setLoop(bool loop) {
    const QSignalBlocker block(m_loop);
    m_loop->setChecked(loop);
}

}  // namespace hitcounter::ui
