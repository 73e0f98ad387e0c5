// The options of every command that reads recorded hits (replay, and later limit, listen
// --follow): --format, --log-format, --key; and opening the file with them.
//
// Threading: main thread only. Functions that return std::nullopt have already written their
// message to stderr (cli_options.h).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <iosfwd>
#include <memory>
#include <optional>

#include "core/io/hit_file.h"

namespace hitcounter::cli {

struct HitFileCliOptions {
    QCommandLineOption format;
    QCommandLineOption logFormat;
    QCommandLineOption key;
    QCommandLineOption maxInflationRatio;
    QCommandLineOption maxTimeJump;  // files read whole (replay, limit), not followed ones
    QCommandLineOption filter;
    QCommandLineOption jobs;  // files read whole (replay, limit)
};

// --format auto|trace|common|combined|json, --log-format 'NGINX LOG_FORMAT', --key KEY,
// --max-inflation-ratio N (gzip_limits.h), --max-time-jump SECONDS (time_jump_check.h),
// --filter EXPR (record_filter.h, docs/filters.md), --jobs N (parallel_log_reader.h).
HitFileCliOptions hitFileCliOptions();
// Adds all seven (replay, limit).
void addHitFileCliOptions(QCommandLineParser& parser, const HitFileCliOptions& options);
// The chosen --format, --log-format, --key, --max-inflation-ratio and --filter, or
// std::nullopt after naming a bad value.
std::optional<HitFileOptions> hitFileOptionsFrom(const QCommandLineParser& parser,
                                                 const HitFileCliOptions& options);
// What a command that reads files whole (replay, limit) reads: FILE... (several are read as
// one stream in time order, rotation sets oldest first: core/io/input_set.h), the options with
// --max-time-jump and --jobs too (the parser has all seven: addHitFileCliOptions), and --key
// source (every hit's key is its file's source label).
struct ReplayedFiles {
    QStringList files;
    HitFileOptions options;
    bool keyBySource = false;
};
// std::nullopt after naming a bad value, or no FILE: "<command> expects FILE...".
std::optional<ReplayedFiles> replayedFilesFrom(const QCommandLineParser& parser,
                                               const HitFileCliOptions& options,
                                               const QString& command);

// The --filter expression, parsed (null when the option is not given), or std::nullopt after
// naming its problem: "--filter 'status=5xx and': column 15: expected a field name ...".
std::optional<std::shared_ptr<const RecordFilter>> filterFrom(const QCommandLineParser& parser,
                                                              const QCommandLineOption& option);

// Opens FILE, or standard input for "-"; std::nullopt after printing why it cannot be read.
std::unique_ptr<HitFile> openHitFile(const QString& file, const HitFileOptions& options);

}  // namespace hitcounter::cli
