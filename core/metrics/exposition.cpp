#include "core/metrics/exposition.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace hitcounter::metrics {

namespace {

void appendEscaped(std::string& out, std::string_view text, bool escapeQuote) {
    for (const char c : text) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '"' && escapeQuote) {
            out += "\\\"";
        } else {
            out += c;
        }
    }
}

void appendValue(std::string& out, const std::variant<Count, double>& value) {
    char buffer[32];
    if (const Count* count = std::get_if<Count>(&value)) {
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, *count).ptr;
        out.append(buffer, end);
        return;
    }
    const double real = std::get<double>(value);
    if (std::isnan(real)) {
        out += "NaN";
    } else if (std::isinf(real)) {
        out += real > 0 ? "+Inf" : "-Inf";
    } else {
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, real).ptr;
        out.append(buffer, end);
    }
}

std::string sampleName(const MetricFamily& family) {
    switch (family.type) {
        case MetricType::Counter:
            return family.name + "_total";
        case MetricType::Info:
            return family.name + "_info";
        case MetricType::Gauge:
            break;
    }
    return family.name;
}

void appendSample(std::string& out, const std::string& name, const Sample& sample) {
    out += name;
    if (!sample.labels.empty()) {
        out += '{';
        for (std::size_t i = 0; i < sample.labels.size(); ++i) {
            if (i > 0) {
                out += ',';
            }
            out += sample.labels[i].name;
            out += "=\"";
            appendEscaped(out, sample.labels[i].value, true);
            out += '"';
        }
        out += '}';
    }
    out += ' ';
    appendValue(out, sample.value);
    out += '\n';
}

void appendText004(std::string& out, const MetricFamily& family) {
    const std::string name = sampleName(family);
    out += "# HELP " + name + ' ';
    appendEscaped(out, family.help, false);
    out += "\n# TYPE " + name + (family.type == MetricType::Counter ? " counter\n" : " gauge\n");
    for (const Sample& sample : family.samples) {
        appendSample(out, name, sample);
    }
}

std::string_view openMetricsType(MetricType type) {
    switch (type) {
        case MetricType::Counter:
            return "counter";
        case MetricType::Info:
            return "info";
        case MetricType::Gauge:
            break;
    }
    return "gauge";
}

void appendOpenMetrics(std::string& out, const MetricFamily& family) {
    out += "# TYPE " + family.name + ' ';
    out += openMetricsType(family.type);
    out += '\n';
    if (!family.unit.empty() && family.name.ends_with("_" + family.unit)) {
        out += "# UNIT " + family.name + ' ' + family.unit + '\n';
    }
    out += "# HELP " + family.name + ' ';
    appendEscaped(out, family.help, true);
    out += '\n';
    const std::string name = sampleName(family);
    for (const Sample& sample : family.samples) {
        appendSample(out, name, sample);
    }
}

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i])) {
            return false;
        }
    }
    return true;
}

// One media range of an Accept header: its type and the q and version parameters.
struct MediaRange {
    std::string_view type;
    double q = 1;
    std::string_view version;
};

std::optional<MediaRange> parseRange(std::string_view text) {
    MediaRange range;
    std::size_t semicolon = text.find(';');
    range.type = trimmed(text.substr(0, semicolon));
    while (semicolon != std::string_view::npos) {
        text.remove_prefix(semicolon + 1);
        semicolon = text.find(';');
        const std::string_view parameter = trimmed(text.substr(0, semicolon));
        const auto equals = parameter.find('=');
        if (equals == std::string_view::npos) {
            continue;
        }
        const std::string_view name = trimmed(parameter.substr(0, equals));
        std::string_view value = trimmed(parameter.substr(equals + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
            value = value.substr(1, value.size() - 2);
        }
        if (equalsIgnoringCase(name, "q")) {
            double q = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), q);
            if (error != std::errc() || end != value.data() + value.size() || !(q >= 0) || q > 1) {
                return std::nullopt;
            }
            range.q = q;
        } else if (equalsIgnoringCase(name, "version")) {
            range.version = value;
        }
    }
    return range;
}

}  // namespace

std::string render(std::span<const MetricFamily> families, ExpositionFormat format) {
    std::string out;
    for (const MetricFamily& family : families) {
        if (format == ExpositionFormat::Text004) {
            appendText004(out, family);
        } else {
            appendOpenMetrics(out, family);
        }
    }
    if (format == ExpositionFormat::OpenMetrics100) {
        out += "# EOF\n";
    }
    return out;
}

std::string_view contentType(ExpositionFormat format) {
    return format == ExpositionFormat::OpenMetrics100
               ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
               : "text/plain; version=0.0.4; charset=utf-8";
}

ExpositionFormat negotiateFormat(std::string_view accept) {
    // The best q of each type offered, and the position of the range that gave it.
    struct Best {
        double q = 0;
        std::size_t at = 0;
        void offer(double candidate, std::size_t position) {
            if (candidate > q) {
                q = candidate;
                at = position;
            }
        }
    };
    Best text, openMetrics;
    for (std::size_t position = 0; !accept.empty(); ++position) {
        const auto comma = accept.find(',');
        const auto range = parseRange(accept.substr(0, comma));
        accept.remove_prefix(comma == std::string_view::npos ? accept.size() : comma + 1);
        if (!range) {
            continue;
        }
        if (equalsIgnoringCase(range->type, "application/openmetrics-text")) {
            if (range->version.empty() || range->version == "1.0.0" || range->version == "0.0.1") {
                openMetrics.offer(range->q, position);
            }
        } else if (equalsIgnoringCase(range->type, "text/plain") ||
                   equalsIgnoringCase(range->type, "text/*") ||
                   equalsIgnoringCase(range->type, "*/*")) {
            if (range->version.empty() || range->version == "0.0.4") {
                text.offer(range->q, position);
            }
        }
    }
    const bool chooseOpenMetrics =
        openMetrics.q > text.q ||
        (openMetrics.q > 0 && openMetrics.q == text.q && openMetrics.at < text.at);
    return chooseOpenMetrics ? ExpositionFormat::OpenMetrics100 : ExpositionFormat::Text004;
}

}  // namespace hitcounter::metrics
