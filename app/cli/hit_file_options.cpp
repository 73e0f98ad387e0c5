#include "app/cli/hit_file_options.h"

#include <QFile>
#include <iostream>

#include "app/cli/cli_options.h"
#include "app/common/option_reader.h"
#include "core/io/trace_format.h"

namespace hitcounter::cli {

namespace {
// --jobs: more threads than this only wait on the one that reads and inflates.
constexpr int kMaxParseJobs = 64;
}  // namespace

HitFileCliOptions hitFileCliOptions() {
    return {
        QCommandLineOption(
            QStringLiteral("format"),
            QStringLiteral("Input format: auto (default: detected from the first lines), trace "
                           "(hitcounter CSV), common, combined (Apache/nginx access logs), json "
                           "(JSON lines). Gzip is recognised by its content."),
            QStringLiteral("FORMAT"), QStringLiteral("auto")),
        QCommandLineOption(
            QStringLiteral("log-format"),
            QStringLiteral("An nginx log_format string, e.g. '$remote_addr - [$time_local] "
                           "\"$request\" $status' (see docs/formats.md)."),
            QStringLiteral("FORMAT")),
        QCommandLineOption(
            QStringLiteral("key"),
            QStringLiteral("Access logs: what a hit's key is: path (default, no query string), "
                           "path+query, status, method, vhost or client; replay and limit: "
                           "also source (the file or rotation set a hit came from)."),
            QStringLiteral("KEY"), QStringLiteral("path")),
        QCommandLineOption(
            QStringLiteral("max-inflation-ratio"),
            QStringLiteral("Gzip files: refuse one that inflates to more than N times its size "
                           "past its first 64 MiB (a gzip bomb; default %1, 0: no limit).")
                .arg(GzipLimits::kDefaultMaxRatio),
            QStringLiteral("N"), QString::number(GzipLimits::kDefaultMaxRatio)),
        QCommandLineOption(
            QStringLiteral("max-time-jump"),
            QStringLiteral("A row more than SECONDS ahead of the newest time so far, and not "
                           "followed by the next row, is a bad row (default %1: one day; 0: no "
                           "check; see docs/sources.md).")
                .arg(kDefaultMaxTimeJump.count()),
            QStringLiteral("SECONDS"), QString::number(kDefaultMaxTimeJump.count())),
        QCommandLineOption(
            QStringLiteral("filter"),
            QStringLiteral("Count only the lines EXPR accepts, e.g. \"status=5xx and "
                           "path~'^/api/'\" (fields status, method, path, vhost, client; "
                           "statsd name and tag; see docs/filters.md)."),
            QStringLiteral("EXPR")),
        QCommandLineOption(
            QStringLiteral("jobs"),
            QStringLiteral("Access logs: parse their lines on N threads (1 to %1; default 1), "
                           "the same rows in the same order as on one; a gzip file is "
                           "inflated on one thread that feeds them.")
                .arg(kMaxParseJobs),
            QStringLiteral("N"), QStringLiteral("1")),
    };
}

void addHitFileCliOptions(QCommandLineParser& parser, const HitFileCliOptions& options) {
    parser.addOptions({options.format, options.logFormat, options.key, options.maxInflationRatio,
                       options.maxTimeJump, options.filter, options.jobs});
}

namespace {

// hitFileOptionsFrom with `source` among the keys when sourceKey is set (it is read as the
// default key, path; the caller replaces every key by its source).
std::optional<HitFileOptions> fileOptionsFrom(const QCommandLineParser& parser,
                                              const HitFileCliOptions& options, bool sourceKey);

}  // namespace

std::optional<ReplayedFiles> replayedFilesFrom(const QCommandLineParser& parser,
                                               const HitFileCliOptions& options,
                                               const QString& command) {
    if (parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("%1 expects FILE... (trace CSVs or access logs, several read as "
                                  "one in time order; or - alone for stdin)")
                       .arg(command));
        return std::nullopt;
    }
    auto chosen = fileOptionsFrom(parser, options, true);
    const auto jump = wholeNumberFrom(parser, options.maxTimeJump, 0, kTraceMaxTimestamp);
    const auto jobs = wholeNumberFrom(parser, options.jobs, 1, kMaxParseJobs);
    if (!chosen || !jump || !jobs)
        return std::nullopt;
    chosen->maxTimeJump = std::chrono::seconds{*jump};
    chosen->parseThreads = static_cast<unsigned>(*jobs);
    return ReplayedFiles{.files = parser.positionalArguments(),
                         .options = *chosen,
                         .keyBySource = parser.value(options.key) == QLatin1String("source")};
}

std::optional<HitFileOptions> hitFileOptionsFrom(const QCommandLineParser& parser,
                                                 const HitFileCliOptions& options) {
    return fileOptionsFrom(parser, options, false);
}

namespace {

std::optional<HitFileOptions> fileOptionsFrom(const QCommandLineParser& parser,
                                              const HitFileCliOptions& options, bool sourceKey) {
    HitFileOptions chosen;
    const QString format = parser.value(options.format);
    const auto parsedFormat = hitFileFormatFromName(format.toStdString());
    if (!parsedFormat) {
        printError(QStringLiteral("--format '%1' is not a format; expected auto, trace, common, "
                                  "combined or json")
                       .arg(format));
        return std::nullopt;
    }
    chosen.format = *parsedFormat;
    if (parser.isSet(options.logFormat)) {
        chosen.logFormat = parser.value(options.logFormat).toStdString();
        if (chosen.logFormat.empty()) {
            printError(
                QStringLiteral("--log-format is empty; expected an nginx log_format "
                               "string such as '$remote_addr [$time_local] \"$request\"'"));
            return std::nullopt;
        }
        if (parser.isSet(options.format) && chosen.format != HitFileFormat::Auto) {
            printError(QStringLiteral("--log-format and --format %1 both name the format; "
                                      "give one")
                           .arg(format));
            return std::nullopt;
        }
    }
    const QString key = parser.value(options.key);
    const bool bySource = sourceKey && key == QLatin1String("source");
    const auto parsedKey =
        bySource ? std::optional(AccessLogKey::Path) : accessLogKeyFromName(key.toStdString());
    if (!parsedKey) {
        printError(QStringLiteral("--key '%1' is not a key; expected path, path+query, status, "
                                  "method, vhost%2 or client")
                       .arg(key, sourceKey ? QStringLiteral(", source") : QString()));
        return std::nullopt;
    }
    chosen.key = *parsedKey;
    const QString ratio = parser.value(options.maxInflationRatio);
    const auto parsedRatio = plainWholeNumber(ratio);
    if (!parsedRatio || *parsedRatio < 0) {
        printError(QStringLiteral("--max-inflation-ratio '%1' is not valid; expected a whole "
                                  "number, 0 for no limit")
                       .arg(ratio));
        return std::nullopt;
    }
    chosen.gzip.maxRatio = std::uint64_t(*parsedRatio);
    const auto filter = filterFrom(parser, options.filter);
    if (!filter)
        return std::nullopt;
    chosen.filter = *filter;
    return chosen;
}

}  // namespace

std::optional<std::shared_ptr<const RecordFilter>> filterFrom(const QCommandLineParser& parser,
                                                              const QCommandLineOption& option) {
    if (!parser.isSet(option))
        return std::shared_ptr<const RecordFilter>();
    const std::string text = parser.value(option).toStdString();
    auto parsed = RecordFilter::parse(text);
    if (const auto* problem = std::get_if<TextProblem>(&parsed)) {
        printError(QStringLiteral("--filter '%1': %2")
                       .arg(QString::fromStdString(text),
                            QString::fromStdString(describeFilterProblem(*problem))));
        return std::nullopt;
    }
    return std::make_shared<const RecordFilter>(std::move(std::get<RecordFilter>(parsed)));
}

std::unique_ptr<HitFile> openHitFile(const QString& file, const HitFileOptions& options) {
    try {
        if (file == QLatin1String("-"))
            return std::make_unique<HitFile>(std::cin, "<stdin>", options);
        return std::make_unique<HitFile>(QFile::encodeName(file).toStdString(), options);
    } catch (const HitFileError& e) {
        printError(QString::fromStdString(e.what()));
        return nullptr;
    }
}

}  // namespace hitcounter::cli
