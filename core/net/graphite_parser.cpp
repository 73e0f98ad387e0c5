#include "core/net/graphite_parser.h"

#include <array>

namespace hitcounter {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t';
}

}  // namespace

ParsedLine parseGraphiteLine(std::string_view line) {
    line = withoutCarriageReturn(line);
    if (line.empty()) {
        return {};
    }
    std::array<std::string_view, 3> fields;
    std::size_t count = 0;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isBlank(line[i])) {
            ++i;
        }
        if (i == line.size()) {
            break;
        }
        const std::size_t start = i;
        while (i < line.size() && !isBlank(line[i])) {
            ++i;
        }
        if (count == fields.size()) {
            return ParsedLine::bad("expected three fields: path value timestamp");
        }
        fields[count++] = line.substr(start, i - start);
    }
    if (count == 0) {
        return {};  // only blanks: skipped like an empty line
    }
    if (count != fields.size()) {
        return ParsedLine::bad("expected three fields: path value timestamp");
    }
    const auto hits = parseHitValue(fields[1]);
    if (!hits) {
        return ParsedLine::bad("value is not a finite number >= 0");
    }
    std::optional<Timestamp> time;
    if (fields[2] != "-1") {
        time = parseUnixSeconds(fields[2]);
        if (!time) {
            return ParsedLine::bad("timestamp is not whole unix seconds or -1");
        }
    }
    return {LineVerdict::Hit, fields[0], *hits, time, {}, {}};
}

}  // namespace hitcounter
