#include <algorithm>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/command.h"
#include "app/cli/hit_file_options.h"
#include "app/cli/json_writer.h"
#include "app/cli/trace_input.h"
#include "core/base/saturating.h"
#include "core/limiters/limit_lab.h"
#include "core/limiters/limiter_factory.h"
#include "core/net/text_escape.h"

namespace hitcounter::cli {

namespace {

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString joinedLimiterNames() {
    QStringList names;
    for (const auto name : limiterNames())
        names << fromView(name);
    return names.join(QStringLiteral(", "));
}

std::optional<std::vector<std::string>> algorithmsFrom(const QString& value) {
    std::vector<std::string> chosen;
    for (const auto name : limiterNames()) {
        if (value == QLatin1String("all") || value == fromView(name))
            chosen.emplace_back(name);
    }
    if (chosen.empty()) {
        printError(QStringLiteral("unknown algorithm '%1'; expected one of %2, all")
                       .arg(value, joinedLimiterNames()));
        return std::nullopt;
    }
    return chosen;
}

// One CSV row per request per algorithm, requests in input order. The accepted requests of a
// row's count are its first ones (rate_limiter.h), so request j of the row is accepted by
// lane i iff j < accepted[i].
class CsvWriter {
public:
    explicit CsvWriter(const LimitLab& lab) {
        for (const auto& lane : lab.lanes())
            m_names.push_back(std::string(lane.limiter->name()));
        std::fputs("time,key,algorithm,decision\n", stdout);
    }

    void write(const HitEvent& event, std::span<const Count> accepted) {
        const std::string prefix = std::to_string(event.time) + ',' + csvField(event.key) + ',';
        for (Count j = 0; j < event.count; ++j) {
            for (std::size_t i = 0; i < m_names.size(); ++i) {
                m_line = prefix;
                m_line += m_names[i];
                m_line += j < accepted[i] ? ",accept\n" : ",reject\n";
                std::fwrite(m_line.data(), 1, m_line.size(), stdout);
            }
        }
    }

private:
    std::vector<std::string> m_names;
    std::string m_line;
};

// The lane with the most requests in one window names its key: "max_window_key" is the key
// (jsonString: escaped when it is not UTF-8), and such a key's bytes are also given, two hex
// digits each, in "max_window_key_hex", so that no two keys print alike.
void printPeak(JsonWriter& out, const WindowPeak& peak) {
    out.key("max_in_any_window").count(peak.peak()).key("max_window_end");
    if (peak.peak() == 0) {
        out.null().key("max_window_key").null();
        return;
    }
    out.integer(peak.peakTime()).key("max_window_key").string(peak.peakKey());
    if (!isValidUtf8(peak.peakKey()))
        out.key("max_window_key_hex").string(hexBytes(peak.peakKey()));
}

// Object keys in ascending order, as QJsonDocument wrote them before counts had to be exact.
void printJson(const LimitLab& lab, const TraceInput& input, Count requests) {
    std::vector<const LimitLab::Lane*> lanes;
    for (const auto& lane : lab.lanes())
        lanes.push_back(&lane);
    std::sort(lanes.begin(), lanes.end(),
              [](const auto* a, const auto* b) { return a->limiter->name() < b->limiter->name(); });
    JsonWriter out;
    out.beginObject().key("algorithms").beginObject();
    for (const LimitLab::Lane* lane : lanes) {
        out.key(lane->limiter->name())
            .beginObject()
            .key("accepted")
            .count(lane->accepted)
            .key("evicted_keys")
            .count(lane->limiter->evictedKeys())
            .key("live_keys")
            .count(lane->limiter->liveKeys());
        printPeak(out, lane->peak);
        out.key("memory_bytes")
            .count(lane->limiter->memoryBytes())
            .key("rejected")
            .count(lane->rejected)
            .endObject();
    }
    out.endObject()
        .key("bad_rows")
        .count(input.progress().badRows)
        .key("limit")
        .count(lab.limit().limit)
        .key("per")
        .integer(lab.limit().per.count())
        .key("requests")
        .count(requests)
        .key("rows")
        .count(input.progress().rows)
        .key("trace")
        .string(input.name().toStdString())
        .key("truncated")
        .boolean(input.truncated())
        .endObject();
    const std::string text = out.take();
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// Every option of `limit`, added to one parser.
struct LimitCliOptions {
    QCommandLineOption limit{
        QStringLiteral("limit"),
        QStringLiteral("L: requests allowed per key per period, 1 to %1.").arg(kMaxRateLimit),
        QStringLiteral("L")};
    QCommandLineOption per{
        QStringLiteral("per"),
        QStringLiteral("W: the period in whole seconds, 1 to %1.").arg(kMaxRatePeriod.count()),
        QStringLiteral("W")};
    QCommandLineOption algorithm{
        QStringLiteral("algorithm"),
        QStringLiteral("Rate limiter: %1, or all (default all).").arg(joinedLimiterNames()),
        QStringLiteral("A"), QStringLiteral("all")};
    QCommandLineOption json{
        QStringLiteral("json"),
        QStringLiteral("Print per algorithm accepted, rejected, max_in_any_window and memory "
                       "instead of the decisions.")};
    QCommandLineOption strict{
        QStringLiteral("strict"),
        QStringLiteral("Stop at the first bad row with exit code 2 (default: skip and count).")};
    HitFileCliOptions file = hitFileCliOptions();

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "Replays a trace or an access log (see docs/formats.md) through per-key rate "
            "limiters, L requests per W seconds for each key, and prints "
            "time,key,algorithm,decision for every request (a row with count n is n requests). "
            "See docs/limits.md."));
        parser.addPositionalArgument(
            QStringLiteral("FILE..."),
            QStringLiteral("Trace CSVs or access logs (plain or .gz), read as one in time order "
                           "(a rotation set such as access.log* oldest first), or - alone for "
                           "stdin."));
        parser.addOptions({limit, per, algorithm, json, strict});
        addHitFileCliOptions(parser, file);
    }
};

// What the command line asks for.
struct LimitPlan {
    ReplayedFiles files;
    std::vector<std::string> algorithms;
    RateLimit rate;
    bool json = false;
    bool strict = false;
};

// The plan, or the exit code after naming what is wrong.
std::variant<LimitPlan, int> parseLimit(QCommandLineParser& parser, const LimitCliOptions& options,
                                        const QStringList& arguments) {
    if (const auto exit = parseArguments(parser, arguments))
        return *exit;
    if (!parser.isSet(options.limit) || !parser.isSet(options.per)) {
        printError(
            QStringLiteral("limit needs both --limit L and --per W (L requests per W "
                           "seconds), such as --limit 100 --per 60"));
        return kExitBadInput;
    }
    const auto l = wholeNumberFrom(parser, options.limit, 1, static_cast<long long>(kMaxRateLimit));
    const auto w = wholeNumberFrom(parser, options.per, 1, kMaxRatePeriod.count());
    const auto names = algorithmsFrom(parser.value(options.algorithm));
    const auto files = replayedFilesFrom(parser, options.file, QStringLiteral("limit"));
    if (!l || !w || !names || !files)
        return kExitBadInput;
    return LimitPlan{.files = *files,
                     .algorithms = *names,
                     .rate = RateLimit{static_cast<Count>(*l), std::chrono::seconds{*w}},
                     .json = parser.isSet(options.json),
                     .strict = parser.isSet(options.strict)};
}

}  // namespace

int runLimit(const QStringList& arguments) {
    QCommandLineParser parser;
    const LimitCliOptions options;
    options.addTo(parser);
    const auto parsed = parseLimit(parser, options, arguments);
    if (const int* exit = std::get_if<int>(&parsed))
        return *exit;
    const LimitPlan& plan = std::get<LimitPlan>(parsed);

    TraceInput input(plan.files.files, plan.files.options, plan.files.keyBySource);
    if (!input.open())
        return kExitBadInput;
    LimitLab lab(plan.algorithms, plan.rate);
    std::optional<CsvWriter> csv;
    if (!plan.json)
        csv.emplace(lab);
    Count requests = 0;
    if (const auto exit = input.read(plan.strict, [&](const HitEvent& event) {
            const auto accepted = lab.admit(event.key, event.time, event.count);
            requests = saturatingAdd(requests, event.count);
            if (csv)
                csv->write(event, accepted);
        }))
        return *exit;
    if (!csv)
        printJson(lab, input, requests);
    return checkedStdout();
}

}  // namespace hitcounter::cli
