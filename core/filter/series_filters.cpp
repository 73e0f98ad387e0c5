#include "core/filter/series_filters.h"

#include <stdexcept>

namespace hitcounter {

std::size_t SeriesFilters::add(RecordFilter filter) {
    for (std::size_t i = 0; i < m_filters.size(); ++i)
        if (m_filters[i].text() == filter.text())
            return i;
    if (m_filters.size() == kMax)
        throw std::length_error("at most " + std::to_string(kMax) +
                                " different filters can be counted at once");
    m_filters.push_back(std::move(filter));
    return m_filters.size() - 1;
}

SeriesMask SeriesFilters::mask(const FilterRecord& record) const {
    SeriesMask bits = 0;
    for (std::size_t i = 0; i < m_filters.size(); ++i)
        if (m_filters[i].matches(record))
            bits = static_cast<SeriesMask>(bits | (1u << i));
    return bits;
}

std::optional<std::string> SeriesFilters::missingField(FilterFields available,
                                                       std::string_view lines) const {
    for (const RecordFilter& filter : m_filters)
        if (const auto missing = filter.missingField(available, lines))
            return "filter '" + filter.text() + "': " + describeFilterProblem(*missing);
    return std::nullopt;
}

}  // namespace hitcounter
