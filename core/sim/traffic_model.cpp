#include "core/sim/traffic_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace hitcounter {

namespace {
constexpr std::uint64_t kCountStream = 0xC0;

void checkRate(double rate) {
    if (!(rate >= 0 && rate <= TrafficModel::kMaxRate)) {
        // "%.15g": as people write numbers (1e9 as 1000000000, not 1000000000.000000).
        char text[64];
        std::snprintf(text, sizeof text, "%.15g", rate);
        throw std::invalid_argument("rate must be between 0 and 10000000 hits/s, got " +
                                    std::string(text));
    }
}

const TrafficOptions& checked(const TrafficOptions& o) {
    checkRate(o.rate);
    if (o.keys < 1 || o.keys > TrafficModel::kMaxKeys) {
        throw std::invalid_argument("keys must be between 1 and 1000000, got " +
                                    std::to_string(o.keys));
    }
    if (o.visitors < 1) {
        throw std::invalid_argument("visitors must be at least 1");
    }
    if (!(o.zipfExponent >= 0 && std::isfinite(o.zipfExponent))) {
        throw std::invalid_argument("the Zipf exponent must be a finite number >= 0");
    }
    if (o.period.count() < 0 || o.jitter.count() < 0) {
        throw std::invalid_argument("period and jitter must not be negative");
    }
    if (!(o.jitterFraction >= 0 && o.jitterFraction <= 1)) {
        throw std::invalid_argument("the jitter fraction must be between 0 and 1");
    }
    if (o.maxEventsPerSecond < 1) {
        throw std::invalid_argument("maxEventsPerSecond must be at least 1");
    }
    return o;
}

// Steady meets a fractional rate on average: the fraction becomes one more hit with that
// probability.
Count steadyHits(double rate, sim::Random& random) {
    const double whole = std::floor(rate);
    return static_cast<Count>(whole) + (random.uniform() < rate - whole ? 1 : 0);
}
}  // namespace

TrafficModel::TrafficModel(const TrafficOptions& options)
    : m_options(checked(options)), m_zipf(options.keys, options.zipfExponent) {
    m_keyNames.reserve(options.keys);
    for (std::uint32_t i = 1; i <= options.keys; ++i) {
        m_keyNames.push_back("/page/" + std::to_string(i));
    }
}

void TrafficModel::setRate(double rate) {
    checkRate(rate);
    m_options.rate = rate;
}

void TrafficModel::setPattern(TrafficPattern pattern) {
    m_options.pattern = pattern;
}

std::string TrafficModel::visitorName(std::uint32_t index) {
    return "v" + std::to_string(index + 1);
}

double TrafficModel::expectedHitsAt(Timestamp t) const {
    const RateShape shape = rateShape(m_options.pattern, m_options.rate, m_options.seed,
                                      m_options.period, m_options.keys, t);
    return shape.base + shape.viralExtra;
}

HitBatch TrafficModel::eventsAt(Timestamp t) const {
    HitBatch out;
    appendEventsAt(t, out);
    return out;
}

void TrafficModel::drawSamples(sim::Random& random, Timestamp t, Count hits, std::uint32_t budget,
                               std::int64_t key, std::vector<Sample>& out) const {
    if (hits == 0) {
        return;
    }
    const Count samples = std::min<Count>(hits, std::max<std::uint32_t>(budget, 1));
    const Count each = hits / samples;
    const Count extra = hits % samples;
    const std::int64_t maxLate = m_options.jitter.count();
    for (Count i = 0; i < samples; ++i) {
        Sample s{t, key < 0 ? m_zipf.draw(random) : static_cast<std::uint32_t>(key),
                 random.below(m_options.visitors), each + (i < extra ? 1 : 0)};
        if (maxLate > 0 && random.uniform() < m_options.jitterFraction) {
            const auto late = 1 + static_cast<std::int64_t>(random.below(static_cast<std::uint32_t>(
                                      std::min<std::int64_t>(maxLate, UINT32_MAX))));
            // Counters and traces start at second 0: a late hit never goes before it.
            s.time = std::max(t - late, std::min<Timestamp>(t, 0));
        }
        out.push_back(s);
    }
}

void TrafficModel::appendEventsAt(Timestamp t, HitBatch& out) const {
    const TrafficOptions& o = m_options;
    sim::Random random(sim::mixSeed(o.seed, static_cast<std::uint64_t>(t), kCountStream));
    const RateShape shape = rateShape(o.pattern, o.rate, o.seed, o.period, o.keys, t);
    const Count baseHits = o.pattern == TrafficPattern::Steady ? steadyHits(shape.base, random)
                                                               : random.poisson(shape.base);
    const Count viralHits = random.poisson(shape.viralExtra);

    // The viral key gets its share of the sample budget, at least one sample.
    const Count total = baseHits + viralHits;
    std::uint32_t viralBudget = 0;
    if (viralHits > 0) {
        const double share = static_cast<double>(viralHits) / static_cast<double>(total);
        viralBudget =
            std::max<std::uint32_t>(1, static_cast<std::uint32_t>(share * o.maxEventsPerSecond));
    }
    const std::uint32_t baseBudget =
        o.maxEventsPerSecond > viralBudget ? o.maxEventsPerSecond - viralBudget : 1;

    std::vector<Sample> samples;
    samples.reserve(std::min<Count>(total, static_cast<Count>(o.maxEventsPerSecond) + 1));
    drawSamples(random, t, baseHits, baseBudget, -1, samples);
    drawSamples(random, t, viralHits, viralBudget, shape.viralKey, samples);

    std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) {
        return std::tie(a.time, a.key, a.visitor) < std::tie(b.time, b.key, b.visitor);
    });
    const Sample* previous = nullptr;
    for (const Sample& s : samples) {
        if (previous != nullptr && previous->time == s.time && previous->key == s.key &&
            previous->visitor == s.visitor) {
            out.back().count += s.count;
        } else {
            out.push_back(HitEvent{s.time, m_keyNames[s.key], visitorName(s.visitor), s.count});
        }
        previous = &s;
    }
}

}  // namespace hitcounter
