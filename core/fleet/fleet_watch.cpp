#include "core/fleet/fleet_watch.h"

#include <algorithm>

#include "core/base/saturating.h"

namespace hitcounter::fleet {

void FleetWatch::unreachable(double at) {
    if (m_outages.empty() || m_outages.back().to != 0) {
        m_outages.push_back({at, 0, false});
        if (m_outages.size() > kOutages) {
            m_outages.erase(m_outages.begin());
        }
    }
}

bool FleetWatch::reached(double at, const std::string& runId, const std::vector<Count>* total,
                         Timestamp now) {
    const bool otherProcess = !m_runId.empty() && !runId.empty() && runId != m_runId;
    std::optional<double> downSince;
    if (!m_outages.empty() && m_outages.back().to == 0) {
        m_outages.back().to = at;
        m_outages.back().restarted = otherProcess;
        downSince = m_outages.back().from;
    } else if (otherProcess) {
        // Restarted between two polls: an outage too short to see.
        m_outages.push_back({at, at, true});
        if (m_outages.size() > kOutages) {
            m_outages.erase(m_outages.begin());
        }
        downSince = at;
    }
    if (!runId.empty()) {
        m_runId = runId;
    }
    if (total == nullptr) {
        return false;
    }
    const Timestamp first = now - Timestamp(total->size()) + 1;
    m_most.erase(m_most.begin(), m_most.lower_bound(first));
    Count lost = 0;
    Count window = 0;
    Timestamp lastShort = 0;
    for (std::size_t i = 0; i < total->size(); ++i) {
        const Timestamp second = first + Timestamp(i);
        const Count read = (*total)[i];
        window = saturatingAdd(window, read);
        Count& most = m_most[second];
        if (most > read) {
            lost = saturatingAdd(lost, most - read);
            lastShort = second;
        } else {
            most = read;
        }
    }
    bool found = false;
    if (lost == 0) {
        m_loss.reset();
    } else if (m_loss) {
        m_loss->lostHits = lost;
        m_loss->lastShortSecond = lastShort;
    } else {
        m_loss = FleetLoss{
            downSince.value_or(at), m_lastWindow.value_or(0), window, lost, lastShort, false};
        found = true;
    }
    m_lastWindow = window;
    return found;
}

void FleetWatch::setLogsLeft(bool left) {
    if (m_loss) {
        m_loss->logsLeft = left;
    }
}

}  // namespace hitcounter::fleet
