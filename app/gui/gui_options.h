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

namespace hitcounter::app {

struct GuiOptions {
    QString simulatePattern;  // empty: not asked for (the default source is the simulator)
    double rate = 0.0;        // 0: the simulator's default
    QString replayFile;
    std::optional<std::int64_t> seek;  // --seek T: trace time to seek the replay to
    QString stateJsonFile;             // --state-json OUT: write what the window shows, exit
    QString listenUdp;                 // HOST:PORT
    QString listenTcp;                 // HOST:PORT
    QString screenshotFile;
    double screenshotAfterSeconds = 3.0;
    int benchFrames = 0;
    bool teach = false;       // open the teaching view as the main window
    QString teachLesson;      // lesson id (core/teach/lessons.h); empty: the LeetCode example
    int teachStep = -1;       // -1: the start, or the last step with --screenshot
    QString teachLessonFile;  // --lesson-file F (core/teach/lesson_file.h)
};

// Parses `arguments` (argv, the program name first). On --help/--version prints and returns
// nullopt with an empty error; on a bad value returns nullopt and sets `error`.
std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error);

}  // namespace hitcounter::app
