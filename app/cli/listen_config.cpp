#include "app/cli/listen_config.h"

#include <QFile>
#include <QRegularExpression>
#include <charconv>
#include <string>

#include <toml++/toml.h>

#include "app/cli/cli_options.h"

namespace hitcounter::cli {

namespace {

QString longName(const QCommandLineOption& option) {
    return option.names().constLast();
}

bool isFlag(const QCommandLineOption& option) {
    return option.valueName().isEmpty();
}

const ConfigurableOption* optionNamed(std::span<const ConfigurableOption> options,
                                      const QString& key) {
    for (const ConfigurableOption& o : options)
        if (longName(o.option) == key)
            return &o;
    return nullptr;
}

int lineOf(const toml::node& node) {
    return int(node.source().begin.line);
}

// A scalar as command-line text, or std::nullopt if it is not a string or a number.
std::optional<QString> scalarText(const toml::node& node) {
    if (const auto* text = node.as_string())
        return QString::fromStdString(text->get());
    if (const auto* integer = node.as_integer())
        return QString::number(qlonglong(integer->get()));
    if (const auto* real = node.as_floating_point()) {
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, real->get()).ptr;
        return QString::fromLatin1(buffer, int(end - buffer));
    }
    return std::nullopt;
}

QString kindOf(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::table:
            return QStringLiteral("a table");
        case toml::node_type::array:
            return QStringLiteral("an array");
        case toml::node_type::boolean:
            return QStringLiteral("true or false");
        case toml::node_type::date:
        case toml::node_type::time:
        case toml::node_type::date_time:
            return QStringLiteral("a date or time");
        default:
            return QStringLiteral("a string or a number");
    }
}

// The entry for `key` = `node`, or std::nullopt after naming what is wrong with it.
std::optional<ConfigEntry> entryFor(const QString& path, const QString& key, const toml::node& node,
                                    const ConfigurableOption& option) {
    ConfigEntry entry{.key = key, .values = {}, .line = lineOf(node)};
    const QString place = QStringLiteral("%1:%2: key '%3': ").arg(path).arg(entry.line).arg(key);
    if (isFlag(option.option)) {
        const auto* flag = node.as_boolean();
        if (!flag) {
            printError(place + QStringLiteral("expected true or false, got %1").arg(kindOf(node)));
            return std::nullopt;
        }
        return flag->get() ? std::optional(entry) : ConfigEntry{};
    }
    if (const auto* array = node.as_array()) {
        if (!option.repeatable) {
            printError(place + QStringLiteral("takes one value, not an array (only udp, tcp, "
                                              "graphite and follow take several)"));
            return std::nullopt;
        }
        for (const toml::node& element : *array) {
            const auto text = scalarText(element);
            if (!text) {
                printError(place + QStringLiteral("expected strings or numbers in the array, got "
                                                  "%1")
                                       .arg(kindOf(element)));
                return std::nullopt;
            }
            entry.values << *text;
        }
        return entry;
    }
    const auto text = scalarText(node);
    if (!text) {
        printError(place + QStringLiteral("expected %1, got %2")
                               .arg(option.repeatable ? QStringLiteral("a string, a number or an "
                                                                       "array of them")
                                                      : QStringLiteral("a string or a number"),
                                    kindOf(node)));
        return std::nullopt;
    }
    entry.values << *text;
    return entry;
}

QString tomlString(const QString& text) {
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u == '"' || u == '\\')
            out += QLatin1Char('\\') + c;
        else if (u == '\n')
            out += QStringLiteral("\\n");
        else if (u == '\t')
            out += QStringLiteral("\\t");
        else if (u < 0x20 || u == 0x7f)
            out += QStringLiteral("\\u%1").arg(unsigned(u), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out + QLatin1Char('"');
}

// A value as TOML: a number where the text is a TOML number that reads back to the same text.
QString tomlValue(const QString& text) {
    static const QRegularExpression number(QStringLiteral("^-?(0|[1-9][0-9]{0,17})(\\.[0-9]+)?$"));
    if (number.match(text).hasMatch()) {
        bool exact = !text.contains(QLatin1Char('.'));
        if (!exact) {
            const QByteArray latin = text.toLatin1();
            double value = 0;
            std::from_chars(latin.data(), latin.data() + latin.size(), value);
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
            exact = QLatin1String(buffer, int(end - buffer)) == text;
        }
        if (exact)
            return text;
    }
    return tomlString(text);
}

}  // namespace

const ConfigEntry* ConfigFile::find(const QString& key) const {
    for (const ConfigEntry& e : entries)
        if (e.key == key)
            return &e;
    return nullptr;
}

std::optional<ConfigFile> readConfigFile(const QString& path,
                                         std::span<const ConfigurableOption> options) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        printError(
            QStringLiteral("%1: cannot read the config file: %2").arg(path, file.errorString()));
        return std::nullopt;
    }
    const QByteArray text = file.readAll();
    toml::table table;
    try {
        table = toml::parse(std::string_view(text.constData(), size_t(text.size())),
                            path.toStdString());
    } catch (const toml::parse_error& e) {
        printError(QStringLiteral("%1:%2:%3: %4")
                       .arg(path)
                       .arg(e.source().begin.line)
                       .arg(e.source().begin.column)
                       .arg(QString::fromStdString(std::string(e.description()))));
        return std::nullopt;
    }
    ConfigFile config{.path = path, .entries = {}};
    bool ok = true;
    for (auto&& [name, node] : table) {
        const QString key = QString::fromStdString(std::string(name.str()));
        const ConfigurableOption* option = optionNamed(options, key);
        if (option && !option->inFile) {
            printError(QStringLiteral("%1:%2: key '%3' is for the command line only")
                           .arg(path)
                           .arg(name.source().begin.line)
                           .arg(key));
            ok = false;
            continue;
        }
        if (!option) {
            printError(QStringLiteral("%1:%2: unknown key '%3'; the keys are listen's option names "
                                      "without -- (docs/metrics.md, \"Config file\")")
                           .arg(path)
                           .arg(name.source().begin.line)
                           .arg(escapedControls(key)));
            ok = false;
            continue;
        }
        auto entry = entryFor(path, key, node, *option);
        if (!entry)
            ok = false;
        else if (!entry->key.isEmpty())
            config.entries.push_back(std::move(*entry));
    }
    if (!ok)
        return std::nullopt;
    return config;
}

bool checkConfigValues(const ConfigFile& file, const QString& program,
                       const std::function<bool(const QStringList&)>& check) {
    bool ok = true;
    for (const ConfigEntry& entry : file.entries) {
        QStringList arguments{program};
        if (entry.values.isEmpty())
            arguments << QStringLiteral("--") + entry.key;
        for (const QString& value : entry.values)
            arguments << QStringLiteral("--%1=%2").arg(entry.key, value);
        const ErrorPlace place(
            QStringLiteral("%1:%2: key '%3': ").arg(file.path).arg(entry.line).arg(entry.key));
        ok = check(arguments) && ok;
    }
    return ok;
}

QStringList mergedArguments(const QString& program, const QCommandLineParser& commandLine,
                            std::span<const ConfigurableOption> options, const ConfigFile* file,
                            const QProcessEnvironment& environment) {
    QStringList arguments{program};
    const auto add = [&](const QString& name, const QStringList& values, bool flag) {
        if (flag)
            arguments << QStringLiteral("--") + name;
        for (const QString& value : values)
            arguments << QStringLiteral("--%1=%2").arg(name, value);
    };
    for (const ConfigurableOption& o : options) {
        const QString name = longName(o.option);
        const QString fromEnvironment =
            o.environment.isEmpty() ? QString() : environment.value(o.environment);
        if (!fromEnvironment.isEmpty())
            add(name, {fromEnvironment}, false);
        else if (commandLine.isSet(o.option))
            add(name, isFlag(o.option) ? QStringList() : commandLine.values(o.option),
                isFlag(o.option));
        else if (const ConfigEntry* entry = file ? file->find(name) : nullptr)
            add(name, entry->values, isFlag(o.option));
    }
    // After "--", so that a positional argument that looks like an option stays positional.
    const QStringList positional = commandLine.positionalArguments();
    if (!positional.isEmpty())
        arguments << QStringLiteral("--") << positional;
    return arguments;
}

QMap<QString, QStringList> optionValues(const QCommandLineParser& parser,
                                        std::span<const ConfigurableOption> options) {
    QMap<QString, QStringList> values;
    for (const ConfigurableOption& o : options)
        if (parser.isSet(o.option))
            values.insert(longName(o.option), isFlag(o.option) ? QStringList{QStringLiteral("true")}
                                                               : parser.values(o.option));
    return values;
}

QString configAsToml(const QCommandLineParser& parser,
                     std::span<const ConfigurableOption> options) {
    QString out = QStringLiteral(
        "# hitcounter-cli listen: the configuration in force "
        "(--print-config)\n");
    for (const ConfigurableOption& o : options) {
        if (!o.inFile || !parser.isSet(o.option))
            continue;
        const QString name = longName(o.option);
        if (isFlag(o.option)) {
            out += name + QStringLiteral(" = true\n");
            continue;
        }
        QStringList values = parser.values(o.option);
        if (o.printed)
            for (QString& v : values)
                v = o.printed(v);
        if (!o.repeatable) {
            out += name + QStringLiteral(" = ") + tomlValue(values.constLast()) + QLatin1Char('\n');
            continue;
        }
        QStringList quoted;
        for (const QString& v : values)
            quoted << tomlString(v);
        out += name + QStringLiteral(" = [") + quoted.join(QStringLiteral(", ")) +
               QStringLiteral("]\n");
    }
    return out;
}

}  // namespace hitcounter::cli
