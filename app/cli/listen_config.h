// listen's options from three places: the command line, a config file (--config FILE, TOML)
// and a few documented HITCOUNTER_* environment variables. The environment overrides the
// command line, which overrides the file, option by option (a repeatable option such as
// --udp takes all its values from the one place that wins). docs/metrics.md, "Config file".
//
// Threading: main thread only. Every function that returns std::nullopt has printed the
// problem (cli_options.h's printError) naming the file, the line and the key.
//
// File format: one key per option, the option's long name without "--"; a flag takes true or
// false, any other option a string or a number (written as on the command line), a repeatable
// option also an array of them:
//     udp = ["127.0.0.1:8125", "[::1]:8125"]
//     metrics = "127.0.0.1:9102"
//     metrics-keys = 100
//     json = false
// Unknown keys, tables, dates, a value of the wrong kind and TOML syntax errors are errors
// (exit code 2); so is a value the option refuses, checked as on the command line but named by
// its place: "listen.toml:4: key 'metrics-keys': --metrics-keys '0' is not valid; ...".
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace hitcounter::cli {

// One option as the file and the environment see it.
struct ConfigurableOption {
    QCommandLineOption option;
    bool repeatable = false;  // may be given several times (a TOML array in the file)
    QString environment;      // the variable that overrides it, e.g. "HITCOUNTER_REDIS"; or ""
    bool inFile = true;       // false: a command-line option only (--config, --print-config)
    // How --print-config shows a value (the Redis URL without its password); null: as it is.
    std::function<QString(const QString&)> printed = nullptr;
};

// One key of the file: the option's long name, its values as command-line text (none for a
// flag) and the line it is on. A flag set to false is left out.
struct ConfigEntry {
    QString key;
    QStringList values;
    int line = 0;
};

struct ConfigFile {
    QString path;
    std::vector<ConfigEntry> entries;

    const ConfigEntry* find(const QString& key) const;
};

// Reads FILE and checks its shape (syntax, keys, kinds of value); values are checked by the
// command itself (checkConfigValues).
std::optional<ConfigFile> readConfigFile(const QString& path,
                                         std::span<const ConfigurableOption> options);

// Runs `check` on the arguments of each entry alone ("--duration=10"), inside an ErrorPlace
// naming its file, line and key; false if any check failed (each has printed its problem).
bool checkConfigValues(const ConfigFile& file, const QString& program,
                       const std::function<bool(const QStringList&)>& check);

// The arguments of the configuration in force: for each option the environment's value if its
// variable is set and not empty, else the command line's values, else the file's; then the
// command line's positional arguments (so that listen still refuses them).
QStringList mergedArguments(const QString& program, const QCommandLineParser& commandLine,
                            std::span<const ConfigurableOption> options, const ConfigFile* file,
                            const QProcessEnvironment& environment);

// Every option `parser` holds, by long name: its values, or {"true"} for a flag.
QMap<QString, QStringList> optionValues(const QCommandLineParser& parser,
                                        std::span<const ConfigurableOption> options);

// What `parser` holds, as a file readConfigFile reads back to the same options
// (listen --print-config): one line per option given, in `options` order.
QString configAsToml(const QCommandLineParser& parser, std::span<const ConfigurableOption> options);

}  // namespace hitcounter::cli
