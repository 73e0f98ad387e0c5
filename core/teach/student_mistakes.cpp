#include "core/teach/student_mistakes.h"

#include <map>

#include "core/teach/number_text.h"
#include "core/teach/ring_variant.h"

namespace hitcounter::teach {

namespace {

// The calls on a ring the learner could have built with that mistake.
std::vector<Count> ringAnswers(const RingVariant& v, const std::vector<Operation>& ops,
                               std::chrono::seconds window) {
    VariantRing ring(v, window);
    std::vector<Count> out;
    for (const Operation& op : ops) {
        if (op.kind == Operation::Kind::Hit) {
            ring.hit(op.second, op.repeat);
        } else {
            out.push_back(ring.count(op.second));
        }
    }
    return out;
}

// Counts every second in [t - W, t]: the exact window closed on the left.
std::vector<Count> closedWindowAnswers(const std::vector<Operation>& ops,
                                       std::chrono::seconds window) {
    std::map<Timestamp, Count> perSecond;
    std::vector<Count> out;
    for (const Operation& op : ops) {
        if (op.kind == Operation::Kind::Hit) {
            perSecond[op.second] += op.repeat;
            continue;
        }
        Count total = 0;
        for (auto it = perSecond.lower_bound(op.second - window.count());
             it != perSecond.end() && it->first <= op.second; ++it) {
            total += it->second;
        }
        out.push_back(total);
    }
    return out;
}

}  // namespace

const std::vector<MistakeInfo>& documentedMistakes() {
    static const std::vector<MistakeInfo> all = {
        {MistakeId::InclusiveEdge, "inclusive_edge", "<= at the edge",
         "A hit exactly W seconds old is counted: the window is (t - W, t], open on the left, "
         "so the comparison must be t - s < W (s > t - W), not <=."},
        {MistakeId::CountOnly, "count_only", "storing only the count",
         "A slot that keeps only a count cannot tell which second the count belongs to, so "
         "hits from W, 2W, ... seconds ago are still added: store the second with the count."},
        {MistakeId::NoReset, "no_reset", "no reset",
         "A reused slot keeps the count of the older second it held: when its stored second is "
         "not t, start the count again from 0 before adding."},
        {MistakeId::UnboundedArray, "unbounded_array", "an unbounded array",
         "Every hit stays stored, also long after it left the window, so memory grows with the "
         "traffic: drop what left the window (a deque) or keep W slots (a ring)."},
        {MistakeId::LinearPop, "linear_pop", "a linear pop",
         "A getHits does work for every hit held (copying or filtering the array, or removing "
         "the front element by element with splice), so it slows down as traffic grows: pop "
         "with shift() from the front, or keep (second, count) pairs."},
    };
    return all;
}

const MistakeInfo& mistakeInfo(MistakeId id) {
    return documentedMistakes().at(std::size_t(id));
}

std::vector<std::vector<Count>> modelAnswers(MistakeId id, const std::vector<Operation>& ops,
                                             std::chrono::seconds window) {
    RingVariant v;
    switch (id) {
        case MistakeId::InclusiveEdge:
            v.compare = RingVariant::Compare::GreaterEqual;
            return {closedWindowAnswers(ops, window), ringAnswers(v, ops, window)};
        case MistakeId::CountOnly:
            v.store = RingVariant::Store::CountOnly;
            v.reset = RingVariant::Reset::Never;
            return {ringAnswers(v, ops, window)};
        case MistakeId::NoReset:
            v.reset = RingVariant::Reset::Never;
            return {ringAnswers(v, ops, window)};
        case MistakeId::UnboundedArray:
        case MistakeId::LinearPop:
            break;
    }
    return {};
}

const std::vector<std::size_t>& growthProbeSizes() {
    static const std::vector<std::size_t> sizes = {25, 50, 100, 200, 400};
    return sizes;
}

std::vector<Operation> growthProbe(std::size_t hits, std::chrono::seconds window) {
    return {Operation{Operation::Kind::Hit, 1, Count(hits)}, Operation{Operation::Kind::GetHits, 1},
            Operation{Operation::Kind::GetHits, 1 + 2 * window.count()}};
}

std::optional<GrowthVerdict> growthMistake(const std::vector<GrowthPoint>& points,
                                           std::chrono::seconds window) {
    if (points.size() < 2) {
        return std::nullopt;
    }
    const GrowthPoint& small = points.front();
    const GrowthPoint& large = points.back();
    const std::size_t extra = large.hits - small.hits;
    const auto probe = [&](bool popping) {
        const std::vector<Operation> all = growthProbe(large.hits, window);
        return std::vector<Operation>{all[0], all[popping ? 2 : 1]};
    };
    const std::string after = " that left the window " + num(window.count()) + " s before";
    if (large.bytesAfter >= small.bytesAfter + 4 * extra) {
        return GrowthVerdict{MistakeId::UnboundedArray,
                             "After " + num(large.hits) + " hits" + after + ", your counter " +
                                 "still holds " + num(large.bytesAfter) + " bytes; after " +
                                 num(small.hits) + " hits, " + num(small.bytesAfter) + ".",
                             probe(true)};
    }
    if (large.idleOperations * 2 >= small.idleOperations * 2 + extra) {
        return GrowthVerdict{MistakeId::LinearPop,
                             "getHits(1), which removes nothing, did " + num(large.idleOperations) +
                                 " operations with " + num(large.hits) + " hits held and " +
                                 num(small.idleOperations) + " with " + num(small.hits) + ".",
                             probe(false)};
    }
    if (large.poppingOperations >= 4 * large.hits &&
        large.poppingOperations * small.hits >= 3 * small.poppingOperations * large.hits) {
        return GrowthVerdict{
            MistakeId::LinearPop,
            "Removing " + num(large.hits) + " hits took " + num(large.poppingOperations) +
                " operations (" + num(large.poppingOperations / large.hits) + " per hit); " +
                "removing " + num(small.hits) + " took " + num(small.poppingOperations) + " (" +
                num(small.poppingOperations / std::max<std::uint64_t>(1, small.hits)) +
                " per hit): each removal costs more the more hits are held.",
            probe(true)};
    }
    return std::nullopt;
}

}  // namespace hitcounter::teach
