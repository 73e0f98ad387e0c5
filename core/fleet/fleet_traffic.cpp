#include "core/fleet/fleet_traffic.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hitcounter::fleet {

namespace {

void require(bool ok, const std::string& what) {
    if (!ok)
        throw std::invalid_argument(what);
}

}  // namespace

FleetTraffic::FleetTraffic(const FleetTrafficOptions& options)
    : m_options(options),
      m_zipf(std::max<std::uint32_t>(options.items, 1), options.zipf),
      m_random(sim::mixSeed(options.seed, 0xF1EE7)) {
    require(options.instances >= 1 && options.instances <= kMaxInstances,
            "instances must be 1 to " + std::to_string(kMaxInstances));
    require(std::isfinite(options.rate) && options.rate >= 0 && options.rate <= kMaxRate,
            "the rate must be 0 to " + std::to_string(std::llround(kMaxRate)) + " hits/s");
    require(std::isfinite(options.viralRate) && options.viralRate >= 0 &&
                options.viralRate <= options.rate,
            "the viral rate must be 0 to the rate (" + std::to_string(options.rate) + ")");
    require(!options.viralKey.empty() || options.viralRate == 0, "a viral rate needs a viral key");
    require(options.items >= 1 && options.items <= kMaxItems,
            "items must be 1 to " + std::to_string(kMaxItems));
    require(std::isfinite(options.zipf) && options.zipf >= 0 && options.zipf <= 10,
            "the Zipf exponent must be 0 to 10");
    require(options.visitors >= 1, "visitors must be at least 1");
    m_keys.reserve(options.items + 1);
    for (std::uint32_t i = 1; i <= options.items; ++i)
        m_keys.push_back(options.prefix + std::to_string(i));
    require(options.viralKey.empty() ||
                std::find(m_keys.begin(), m_keys.end(), options.viralKey) == m_keys.end(),
            "the viral key '" + options.viralKey + "' is also a catalogue key");
    if (!options.viralKey.empty())
        m_keys.push_back(options.viralKey);
    m_sentPerItem.assign(options.items, 0);
}

void FleetTraffic::advanceTo(double position, Timestamp second,
                             std::vector<HitBatch>& perInstance) {
    perInstance.resize(std::size_t(m_options.instances));
    const double total = std::floor(m_options.rate * std::max(position, 0.0));
    const double due = std::max(total - double(m_sent), 0.0);
    const double viralShare = m_options.rate > 0 ? m_options.viralRate / m_options.rate : 0;
    const auto instances = std::uint32_t(m_options.instances);
    for (std::uint64_t n = 0; n < std::uint64_t(due); ++n) {
        const std::uint32_t instance = m_random.below(instances);
        const std::uint32_t visitor = m_random.below(m_options.visitors);
        const bool viral = viralShare > 0 && m_random.uniform() < viralShare;
        std::uint32_t rank = 0;
        if (viral) {
            ++m_viralSent;
            m_viralVisitors.insert(visitor);
        } else {
            rank = m_zipf.draw(m_random);
            ++m_sentPerItem[rank];
        }
        perInstance[instance].push_back(
            {second, viral ? m_options.viralKey : m_keys[rank], "v" + std::to_string(visitor), 1});
        ++m_sent;
    }
}

std::map<std::string, Count> FleetTraffic::sentPerKey() const {
    std::map<std::string, Count> sent;
    for (std::size_t i = 0; i < m_sentPerItem.size(); ++i)
        if (m_sentPerItem[i] > 0)
            sent.emplace(m_keys[i], m_sentPerItem[i]);
    if (m_viralSent > 0)
        sent.emplace(m_options.viralKey, m_viralSent);
    return sent;
}

}  // namespace hitcounter::fleet
