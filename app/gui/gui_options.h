// GuiOptions: the command line of the `hitcounter` GUI, parsed with QCommandLineParser.
//
// To add an option: a member here, one addOption() and one read in gui_options.cpp.
// parseGuiOptions() never exits: it returns an error message for the caller to print
// (exit code 2).
#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ui/sources/source_spec.h"

namespace hitcounter::app {

struct GuiOptions {
    QString simulatePattern;  // empty: not asked for (the default source is the simulator)
    double rate = 0.0;        // 0: the simulator's default
    double speed = 0.0;       // --speed: one of kSpeeds (speeds.h); 0: the source's default
    QStringList replayFiles;  // traces or access logs, plain or gzip, replayed as one
    QStringList followFiles;  // --follow: live access logs, like tail -F
    bool fromStart = false;   // --from-start: follow reads the lines already in the log too
    QString logFormat;        // --log-format: an nginx log_format line; empty: detected
    QString filter;           // --filter: count only the lines it accepts; empty: all
    QString key;    // --key: the access-log key (path, path+query, status, ...); empty: path
    QString theme;  // --theme light|dark; empty: as last time
    int width = 0;  // --size WxH: the window's size (screenshots); 0: as last time
    int height = 0;
    QString statusSplit;              // --status-split off|stacked|lines; empty: as last time
    std::vector<std::int64_t> seeks;  // --seek T1,T2,...: trace times, seeked in this order
    QString stateJsonFile;            // --state-json OUT: write what the window shows, exit
    bool afterSet = false;            // --after was given (--state-json waits that long)
    QString timeZone;                 // --time-zone utc|local|log; empty: as last time
    QString listenUdp;                // HOST:PORT
    QString listenTcp;                // HOST:PORT
    QString redisUrl;                 // --redis: watch the fleet's Redis in the Fleet tab
    QString listenGraphite;           // HOST:PORT: Graphite plaintext over TCP
    int receivers = 0;                // --receivers N for the listener; 0: one per core
    QString screenshotFile;
    double screenshotAfterSeconds = 3.0;
    int benchFrames = 0;
    bool teach = false;       // open the teaching view as the main window
    QString teachLesson;      // lesson id (core/teach/lessons.h); empty: the LeetCode example
    int teachStep = -1;       // -1: the start, or the last step with --screenshot
    QString teachLessonFile;  // --lesson-file F (core/teach/lesson_file.h)
    QString teachBuild;       // --build SPEC: the Build tab with this ring, run on the lesson
    QString teachCode;        // --code FILE.js: the Code tab with this code, checked
    QString teachHandout;     // --handout FILE.pdf: write the lesson's handout and exit
    QString view;             // --view: "monitor" (default), "limits" (Rate limits tab) or "fleet"
    // The Rate limits lab (--limit, --per, --limit-scope, --algorithms): set means the lab
    // runs from the start with these.
    bool limitsSet = false;
    long long limit = 100;
    long long per = 60;
    bool perKey = true;
    std::vector<std::string> algorithms;  // empty: all
};

// Parses `arguments` (argv, the program name first). On --help/--version prints and returns
// nullopt with an empty error; on a bad value returns nullopt and sets `error`.
// Options that clash (two sources, --rate with a non-simulator source, two ways to end the
// run, --teach with a monitor option) are an error naming both.
std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error);

// The source to start. With no source option (--simulate, --rate, --replay, --follow,
// --listen-udp, --listen-tcp, --listen-graphite, --redis) the remembered one, as it was.
// --speed needs --simulate, --rate or --replay. With
// one, the source's defaults plus what the command line gives: explicit options win, and nothing of
// the remembered source (its rate, file, speed, loop) is inherited. nullopt and `error` for a bad
// pattern.
std::optional<ui::SourceSpec> sourceSpecFromOptions(const GuiOptions& options,
                                                    const ui::SourceSpec& remembered,
                                                    QString* error);

// A number as people write it: 1e9 as "1000000000", 2.5 as "2.5" (no trailing zeros).
QString formatNumber(double value);

}  // namespace hitcounter::app
