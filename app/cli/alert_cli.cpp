#include "app/cli/alert_cli.h"

#include <unistd.h>
#include <QFile>

#include <cmath>
#include <stdexcept>

#include "app/cli/cli_options.h"
#include "core/base/saturating.h"
#include "core/io/regular_file.h"

namespace hitcounter::cli {

namespace {

// "nan"; a whole number as such (bytes, counts); else six significant digits.
std::string valueText(double value) {
    if (std::isnan(value))
        return "nan";
    char text[32];
    if (value == std::floor(value) && std::abs(value) < 1e15)
        std::snprintf(text, sizeof text, "%.0f", value);
    else
        std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

}  // namespace

AlertCliOptions alertCliOptions() {
    return {
        QCommandLineOption(
            QStringLiteral("alert"),
            QStringLiteral("Print time,rule,state,value each time RULE fires or clears, e.g. "
                           "'errors: count(status=5xx) / count(*) > 2% for 60s clear < 1%' "
                           "(repeatable; docs/alerts.md). Exit code 3 when a rule fired."),
            QStringLiteral("RULE")),
        QCommandLineOption(QStringLiteral("alert-file"),
                           QStringLiteral("Read alert rules from FILE, one per line ('#' "
                                          "starts a comment line)."),
                           QStringLiteral("FILE")),
        QCommandLineOption(
            QStringLiteral("alert-command"),
            QStringLiteral("Run CMD with /bin/sh each time a rule fires or clears, the alert in "
                           "HITCOUNTER_ALERT_RULE, _STATE, _TIME, _VALUE and _TEXT."),
            QStringLiteral("CMD")),
    };
}

AlertRun::AlertRun(std::unique_ptr<AlertMonitor> monitor, std::FILE* out, bool csv)
    : m_monitor(std::move(monitor)), m_out(out), m_csv(csv), m_firedPerRule(m_monitor->size()) {}

void AlertRun::begin() {
    if (m_csv) {
        std::fputs("time,rule,state,value\n", m_out);
        std::fflush(m_out);
    }
}

void AlertRun::add(const HitEvent& hit) {
    m_timedHits += hit.hasSeconds() ? 1 : 0;
    m_monitor->add(hit);
}

void AlertRun::beginLive(Timestamp now) {
    begin();
    m_monitor->startAt(now);
}

void AlertRun::addLive(const HitBatch& batch, Timestamp now) {
    const Timestamp window = m_monitor->window().count();
    for (const HitEvent& hit : batch) {
        if (hit.time > now - window && hit.time <= now + 1)
            add(hit);
        else
            m_outsideWindow = saturatingAdd(m_outsideWindow, std::uint64_t{1});
    }
}

void AlertRun::reportAtEnd() const {
    if (m_outsideWindow > 0)
        printError(QStringLiteral("--alert: %1 hit(s) carried their own time outside the wall "
                                  "clock's window (older than %2 s or ahead of it); the rules "
                                  "did not see them")
                       .arg(m_outsideWindow)
                       .arg(m_monitor->window().count()));
    if (m_timedHits > 0)
        return;
    for (std::size_t r = 0; r < m_monitor->size(); ++r)
        if (m_monitor->rule(r).readsResponseTimes())
            printError(QStringLiteral("--alert %1: no hit named its response time, so its p50, "
                                      "p90, p99 or max was undefined throughout (a log needs "
                                      "$request_time, %D or a JSON request_time member; "
                                      "docs/measures.md)")
                           .arg(QString::fromStdString(m_monitor->name(r))));
}

void AlertRun::advanceTo(Timestamp second) {
    const std::vector<AlertEvent> events = m_monitor->advanceTo(second);
    for (const AlertEvent& e : events) {
        if (e.firing) {
            ++m_fired;
            ++m_firedPerRule[e.rule];
        }
        if (m_csv) {
            std::fprintf(m_out, "%lld,%s,%s,%s\n", static_cast<long long>(e.second),
                         m_monitor->name(e.rule).c_str(), e.firing ? "firing" : "cleared",
                         valueText(e.value).c_str());
            std::fflush(m_out);  // before the command, whose output goes to stderr
        }
        if (m_command)
            m_command->run(e, m_monitor->name(e.rule), m_monitor->rule(e.rule).text(),
                           valueText(e.value));
        m_events.push_back(e);
    }
}

void AlertRun::writeJson(JsonWriter& out) const {
    out.key("alerts").beginArray();
    for (const AlertEvent& e : m_events) {
        out.beginObject()
            .key("time")
            .integer(e.second)
            .key("rule")
            .string(m_monitor->name(e.rule))
            .key("state")
            .string(e.firing ? "firing" : "cleared")
            .key("value")
            .real(e.value)  // null when undefined
            .endObject();
    }
    out.endArray().key("alert_rules").beginArray();
    for (std::size_t r = 0; r < m_monitor->size(); ++r)
        out.beginObject()
            .key("name")
            .string(m_monitor->name(r))
            .key("rule")
            .string(m_monitor->rule(r).text())
            .key("firing")
            .boolean(m_monitor->state(r) == AlertState::Firing)
            .key("fired")
            .count(m_firedPerRule[r])
            .endObject();
    out.endArray();
}

std::string AlertRun::membersJson() const {
    JsonWriter out;
    out.beginObject();
    writeJson(out);
    out.endObject();
    std::string text = out.take();  // "{\n" members "\n}\n"
    return text.substr(2, text.size() - 5);
}

namespace {

// Parses `text` into `rules`; false after naming its problem, `place` first.
bool addRule(const std::string& text, const QString& place, std::vector<AlertRule>& rules) {
    auto parsed = AlertRule::parse(text);
    if (const auto* problem = std::get_if<TextProblem>(&parsed)) {
        printError(QStringLiteral("%1: %2").arg(
            place, QString::fromStdString(describeAlertProblem(*problem))));
        return false;
    }
    rules.push_back(std::move(std::get<AlertRule>(parsed)));
    return true;
}

// The rules of a rules file (see alert_cli.h); false after naming the file's problem.
bool addRulesFile(const QString& path, std::vector<AlertRule>& rules) {
    std::string text;
    try {
        const int fd = openRegularFile(QFile::encodeName(path).toStdString(), "read alert rules");
        QFile file;
        if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
            ::close(fd);
            throw RegularFileError("cannot read alert rules '" + path.toStdString() + "'");
        }
        const QByteArray bytes = file.read(qint64(kMaxRulesFileBytes) + 1);
        if (bytes.size() > qsizetype(kMaxRulesFileBytes)) {
            printError(QStringLiteral("%1: more than %2 bytes; expected a rules file of at most "
                                      "that size")
                           .arg(path)
                           .arg(kMaxRulesFileBytes));
            return false;
        }
        text = bytes.toStdString();
    } catch (const RegularFileError& e) {
        printError(QString::fromStdString(e.what()));
        return false;
    }
    std::size_t lineNumber = 0;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string line = text.substr(at, end - at);
        at = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#')
            continue;
        if (!addRule(line, QStringLiteral("%1:%2").arg(path).arg(lineNumber), rules))
            return false;
    }
    return true;
}

}  // namespace

std::optional<std::unique_ptr<AlertRun>> alertRunFrom(const QCommandLineParser& parser,
                                                      const AlertCliOptions& options,
                                                      std::chrono::seconds window, std::FILE* out,
                                                      bool csv, AlertCommand::Mode mode) {
    std::vector<AlertRule> rules;
    if (parser.isSet(options.alertFile) && !addRulesFile(parser.value(options.alertFile), rules))
        return std::nullopt;
    for (const QString& value : parser.values(options.alert))
        if (!addRule(value.toStdString(), QStringLiteral("--alert '%1'").arg(value), rules))
            return std::nullopt;
    if (rules.empty()) {
        if (parser.isSet(options.alertFile) || parser.isSet(options.alertCommand)) {
            printError(parser.isSet(options.alertFile)
                           ? QStringLiteral("%1: no rule in it; expected one rule per line")
                                 .arg(parser.value(options.alertFile))
                           : QStringLiteral("--alert-command needs a rule (--alert or "
                                            "--alert-file)"));
            return std::nullopt;
        }
        return std::unique_ptr<AlertRun>();
    }
    try {
        auto run = std::make_unique<AlertRun>(
            std::make_unique<AlertMonitor>(std::move(rules), window), out, csv);
        if (parser.isSet(options.alertCommand))
            run->setCommand(std::make_unique<AlertCommand>(
                parser.value(options.alertCommand).toStdString(), mode));
        return run;
    } catch (const std::exception& e) {  // two rules of one name, too many filters
        printError(QStringLiteral("--alert: %1").arg(QString::fromStdString(e.what())));
        return std::nullopt;
    }
}

}  // namespace hitcounter::cli
