#include "core/filter/filter_record.h"

#include <array>
#include <utility>
#include <vector>

namespace hitcounter {

namespace {

constexpr std::array<std::pair<FilterField, std::string_view>, 7> kFieldNames = {{
    {FilterField::Status, "status"},
    {FilterField::Method, "method"},
    {FilterField::Path, "path"},
    {FilterField::Vhost, "vhost"},
    {FilterField::Client, "client"},
    {FilterField::Name, "name"},
    {FilterField::Tag, "tag"},
}};

}  // namespace

std::optional<FilterField> filterFieldFromName(std::string_view name) {
    for (const auto& [field, fieldName] : kFieldNames)
        if (name == fieldName)
            return field;
    return std::nullopt;
}

std::string_view filterFieldName(FilterField field) {
    return kFieldNames[static_cast<std::size_t>(field)].second;
}

std::string FilterFields::names() const {
    std::vector<std::string_view> present;
    for (const auto& [field, fieldName] : kFieldNames)
        if (has(field))
            present.push_back(fieldName);
    std::string text;
    for (std::size_t i = 0; i < present.size(); ++i) {
        if (i > 0)
            text += i + 1 == present.size() ? " and " : ", ";
        text += present[i];
    }
    return text;
}

}  // namespace hitcounter
