// SeriesFilters: up to 16 filter expressions a source asks of every line it reads, to mark
// each hit with the ones that accept it (HitEvent::series: bit i set when filter i accepts the
// hit's line). Several filtered series are then counted from one pass over the input, as the
// alert rules' `count(status=5xx)` need (core/alert).
//
// Unlike a source's filter (which drops the lines it refuses), a series filter drops nothing:
// every hit still counts as before, it only carries its mask.
//
// Threading: built on one thread, then immutable; share it as a
// std::shared_ptr<const SeriesFilters>, and mask() may be called from any number of threads.
// Cost: mask() asks every filter (RecordFilter::matches each).
//
// Example:
//     SeriesFilters series;
//     series.add(std::get<RecordFilter>(RecordFilter::parse("status=5xx")));   // 0
//     series.add(std::get<RecordFilter>(RecordFilter::parse("path~'^/api/'")));  // 1
//     FilterRecord r;  r.status = "503";  r.path = "/api/x";
//     series.mask(r);   // 0b11
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/filter/record_filter.h"

namespace hitcounter {

using SeriesMask = std::uint16_t;

class SeriesFilters {
public:
    static constexpr std::size_t kMax = 16;  // the bits of a SeriesMask

    // Adds `filter` as the next series and returns its index (its bit in a mask); an equal
    // expression (same text) already added keeps its index. Throws std::length_error past kMax
    // different expressions.
    std::size_t add(RecordFilter filter);

    // Bit i set when filter i accepts `record`.
    SeriesMask mask(const FilterRecord& record) const;

    std::size_t size() const { return m_filters.size(); }
    bool empty() const { return m_filters.empty(); }
    const RecordFilter& at(std::size_t index) const { return m_filters.at(index); }

    // For a source whose lines have only the fields `available` ("statsd lines"): "filter 'X':
    // column 1: field 'status' is not in statsd lines ..." for the first series naming a field
    // they lack; nullopt when every series can be asked.
    std::optional<std::string> missingField(FilterFields available, std::string_view lines) const;

private:
    std::vector<RecordFilter> m_filters;
};

}  // namespace hitcounter
