// FilterRecord: the fields of one parsed line that a filter expression (record_filter.h) can
// test, as views into the line, and the names those fields have in the grammar.
//
// Value type; views only (the line and its parser's buffers must outlive it). No allocation.
//
// Fields and who has them (a source refuses, at its start, a filter naming a field it lacks):
//   status  access logs: the status text as logged ("404", "-")
//   method  access logs: the request method ("GET"); "(invalid request)" for a request line
//           that is not `METHOD target[ PROTOCOL]`, as `--key method` makes it
//   path    access logs: the request path without its query string ("/a" for "/a?b=1");
//           "(invalid request)" likewise, as `--key path` makes it
//   vhost   access logs whose format has $host, $server_name or $http_host
//   client  access logs: the client address
//   name    statsd and Graphite lines: the metric name (the key)
//   tag     statsd lines: each of the comma-separated DogStatsD tags after '#' ("env:prod");
//           a line has several or none
//
// Example:
//     FilterRecord r;
//     r.status = "404";
//     r.path = "/missing";   // every other field empty
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hitcounter {

enum class FilterField : std::uint8_t { Status, Method, Path, Vhost, Client, Name, Tag };

// "status", "method", "path", "vhost", "client", "name", "tag" -> the field; nullopt otherwise.
std::optional<FilterField> filterFieldFromName(std::string_view name);
std::string_view filterFieldName(FilterField field);

// A set of fields: what a source's lines have, or what an expression names.
class FilterFields {
public:
    constexpr FilterFields() = default;
    constexpr FilterFields(std::initializer_list<FilterField> fields) {
        for (const FilterField f : fields)
            add(f);
    }
    constexpr void add(FilterField f) { m_bits |= bit(f); }
    constexpr bool has(FilterField f) const { return (m_bits & bit(f)) != 0; }
    constexpr bool empty() const { return m_bits == 0; }
    // The names in declaration order, joined for a sentence: "name and tag",
    // "status, method, path and client".
    std::string names() const;

private:
    static constexpr std::uint32_t bit(FilterField f) {
        return std::uint32_t{1} << static_cast<unsigned>(f);
    }
    std::uint32_t m_bits = 0;
};

// What each kind of line has (an access log's vhost only with a format that logs it).
inline constexpr FilterFields kAccessLogFilterFields{FilterField::Status, FilterField::Method,
                                                     FilterField::Path, FilterField::Client};
inline constexpr FilterFields kStatsdFilterFields{FilterField::Name, FilterField::Tag};
inline constexpr FilterFields kGraphiteFilterFields{FilterField::Name};

struct FilterRecord {
    std::string_view status;
    std::string_view method;
    std::string_view path;
    std::string_view vhost;
    std::string_view client;
    std::string_view name;
    std::string_view tags;  // statsd: the text after '#', tags separated by ','

    // The field's text (for tag: every tag, as one text).
    std::string_view value(FilterField field) const {
        switch (field) {
            case FilterField::Status:
                return status;
            case FilterField::Method:
                return method;
            case FilterField::Path:
                return path;
            case FilterField::Vhost:
                return vhost;
            case FilterField::Client:
                return client;
            case FilterField::Name:
                return name;
            case FilterField::Tag:
                return tags;
        }
        return {};
    }
};

}  // namespace hitcounter
