#include "ui/monitor/overload_banner.h"

#include "ui/common/number_text.h"

namespace hitcounter::ui {

OverloadBanner::OverloadBanner(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("overloadBanner"));
    setWordWrap(true);
    setStyleSheet(
        QStringLiteral("QLabel { background: #fef7e0; color: #7a4a00; border: 1px solid #f29900; "
                       "padding: 6px; border-radius: 3px; font-weight: bold; }"));
    hide();
}

void OverloadBanner::reset() {
    m_seen = 0;
    m_episodeDropped = 0;
    m_lag = false;
    m_fullSinceMs = -1;
    hide();
}

void OverloadBanner::observe(std::uint64_t dropped, double queueFill, std::int64_t nowMs) {
    if (dropped < m_seen) {
        m_seen = 0;  // a new source's counters
    }
    const std::uint64_t fresh = dropped - m_seen;
    m_seen = dropped;
    if (queueFill < kLagFill) {
        m_fullSinceMs = -1;
    } else if (m_fullSinceMs < 0) {
        m_fullSinceMs = nowMs;
    }
    const bool lag = m_fullSinceMs >= 0 && nowMs - m_fullSinceMs >= kLagMs;
    if (fresh > 0 || lag) {
        if (isHidden()) {
            m_episodeDropped = 0;
        }
        m_episodeDropped += fresh;
        m_lastTroubleMs = nowMs;
        m_lag = lag;
    } else {
        if (!isHidden() && nowMs - m_lastTroubleMs >= kHoldMs) {
            hide();
        }
        return;
    }
    QString text;
    if (m_episodeDropped > 0) {
        text = tr("Overload: %1 hits dropped: the counting thread cannot keep up with the "
                  "source, so the counts are too low. Lower the rate or the speed.")
                   .arg(compactCount(m_episodeDropped));
    } else {
        text = tr("Overload: the queue to the counting thread is %1 % full: the views lag "
                  "behind the source and hits will be dropped next. Lower the rate or the "
                  "speed.")
                   .arg(int(queueFill * 100.0));
    }
    setText(text);
    setToolTip(tr("Dropped hits in this episode: %1 (total since the source started: %2). "
                  "The queue is bounded, so memory stays bounded while hits are dropped.")
                   .arg(exactCount(m_episodeDropped), exactCount(dropped)));
    show();
}

}  // namespace hitcounter::ui
