// The options of every command that reads recorded hits (replay, and later limit, listen
// --follow): --format, --log-format, --key; and opening the file with them.
//
// Threading: main thread only. Functions that return std::nullopt have already written their
// message to stderr (cli_options.h).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
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
};

// --format auto|trace|common|combined|json, --log-format 'NGINX LOG_FORMAT', --key KEY,
// --max-inflation-ratio N (gzip_limits.h), --max-time-jump SECONDS (time_jump_check.h).
HitFileCliOptions hitFileCliOptions();
// Adds all five (replay, limit).
void addHitFileCliOptions(QCommandLineParser& parser, const HitFileCliOptions& options);
// The chosen --format, --log-format, --key and --max-inflation-ratio, or std::nullopt after
// naming a bad value.
std::optional<HitFileOptions> hitFileOptionsFrom(const QCommandLineParser& parser,
                                                 const HitFileCliOptions& options);
// The same with --max-time-jump too (the parser has all five: addHitFileCliOptions).
std::optional<HitFileOptions> replayedFileOptionsFrom(const QCommandLineParser& parser,
                                                      const HitFileCliOptions& options);

// Opens FILE, or standard input for "-"; std::nullopt after printing why it cannot be read.
std::unique_ptr<HitFile> openHitFile(const QString& file, const HitFileOptions& options);

}  // namespace hitcounter::cli
