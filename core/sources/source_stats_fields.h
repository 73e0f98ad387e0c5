// The fields of SourceStats (source.h), listed once: their names in a JSON report and in the
// one-line text report of `hitcounter-cli listen`, a visitor over them and a saturating sum.
// Reports and totals go through these, so a new field is added here and in the struct only.
//
// Thread-safe: constants and pure functions.
//
// Example: SourceStats total; total += a; total += b;
//     forEachField(total, [](const SourceStatsField& f, std::uint64_t v) { ... f.json ... });
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/base/saturating.h"
#include "core/sources/source.h"

namespace hitcounter {

struct SourceStatsField {
    std::string_view json;  // "late_hits"
    std::string_view text;  // "late"
    std::uint64_t SourceStats::*member;
};

inline constexpr std::array<SourceStatsField, 7> kSourceStatsFields{{
    {"packets", "packets", &SourceStats::packets},
    {"lines", "lines", &SourceStats::lines},
    {"hits", "hits", &SourceStats::hits},
    {"bad_lines", "bad_lines", &SourceStats::badLines},
    {"ignored", "ignored", &SourceStats::ignoredLines},
    {"dropped", "dropped", &SourceStats::dropped},
    {"late_hits", "late", &SourceStats::lateHits},
}};

// Calls visit(field, value) for each field of `stats`, in kSourceStatsFields order.
template <class Visit>
void forEachField(const SourceStats& stats, Visit&& visit) {
    for (const SourceStatsField& field : kSourceStatsFields) {
        visit(field, stats.*field.member);
    }
}

// Adds each field of `other`, saturating at UINT64_MAX (totals over several sources).
inline SourceStats& operator+=(SourceStats& total, const SourceStats& other) {
    for (const SourceStatsField& field : kSourceStatsFields) {
        total.*field.member = saturatingAdd(total.*field.member, other.*field.member);
    }
    return total;
}

}  // namespace hitcounter
