#include "core/engine/lockstep.h"

namespace hitcounter {

Lockstep::Lockstep(std::vector<std::unique_ptr<WindowCounter>> policies,
                   std::optional<ThreadCpuTimer> timer)
    : m_policies(std::move(policies)), m_state(m_policies.size()), m_timer(timer) {}

void Lockstep::feed(std::span<const SecondHits> runs) {
    for (std::size_t p = 0; p < m_policies.size(); ++p) {
        PolicyState& state = m_state[p];
        if (state.stopped) {
            continue;
        }
        if (m_timer) {
            const auto start = ThreadCpuTimer::now();
            m_policies[p]->hitRuns(runs);
            state.cpu += m_timer->since(start);
        } else {
            m_policies[p]->hitRuns(runs);
        }
        state.runsFed += runs.size();
    }
}

Count Lockstep::count(std::size_t p, Timestamp t) const {
    return m_state[p].stopped ? m_state[p].frozenCount : m_policies[p]->count(t);
}

std::size_t Lockstep::memoryBytes(std::size_t p) const {
    return m_state[p].stopped ? m_state[p].frozenMemory : m_policies[p]->memoryBytes();
}

void Lockstep::stop(std::size_t p, Timestamp at) {
    PolicyState& state = m_state[p];
    if (state.stopped) {
        return;
    }
    state.frozenCount = m_policies[p]->count(at);
    state.frozenMemory = m_policies[p]->memoryBytes();
    state.stoppedAt = at;
    state.stopped = true;
}

double Lockstep::nsPerHit(std::size_t p) const {
    const PolicyState& state = m_state[p];
    return state.runsFed == 0
               ? 0.0
               : static_cast<double>(state.cpu.count()) / static_cast<double>(state.runsFed);
}

std::size_t Lockstep::heldBytes() const {
    std::size_t bytes = m_state.capacity() * sizeof(PolicyState) +
                        m_policies.capacity() * sizeof(std::unique_ptr<WindowCounter>);
    for (const auto& policy : m_policies) {
        bytes += policy->memoryBytes();
    }
    return bytes;
}

std::optional<Lockstep> Lockstep::clone() const {
    std::vector<std::unique_ptr<WindowCounter>> copies;
    copies.reserve(m_policies.size());
    for (const auto& policy : m_policies) {
        copies.push_back(policy->clone());
        if (!copies.back()) {
            return std::nullopt;
        }
    }
    Lockstep copy(std::move(copies), m_timer);
    copy.m_state = m_state;
    return copy;
}

}  // namespace hitcounter
