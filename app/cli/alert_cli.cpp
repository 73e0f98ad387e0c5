#include "app/cli/alert_cli.h"

#include <cmath>
#include <stdexcept>

#include "app/cli/cli_options.h"

namespace hitcounter::cli {

namespace {

std::string valueText(double value) {
    if (std::isnan(value))
        return "nan";
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

}  // namespace

QCommandLineOption alertCliOption() {
    return QCommandLineOption(
        QStringLiteral("alert"),
        QStringLiteral("Print time,rule,state,value each time RULE fires or clears, e.g. "
                       "'errors: count(status=5xx) / count(*) > 2% for 60s clear < 1%' "
                       "(repeatable; docs/alerts.md). Exit code 3 when a rule fired."),
        QStringLiteral("RULE"));
}

AlertRun::AlertRun(std::unique_ptr<AlertMonitor> monitor, std::FILE* out, bool csv)
    : m_monitor(std::move(monitor)), m_out(out), m_csv(csv), m_firedPerRule(m_monitor->size()) {}

void AlertRun::begin() {
    if (m_csv) {
        std::fputs("time,rule,state,value\n", m_out);
        std::fflush(m_out);
    }
}

void AlertRun::add(const HitBatch& batch) {
    for (const HitEvent& hit : batch)
        m_monitor->add(hit);
}

void AlertRun::advanceTo(Timestamp second) {
    const std::vector<AlertEvent> events = m_monitor->advanceTo(second);
    for (const AlertEvent& e : events) {
        if (e.firing) {
            ++m_fired;
            ++m_firedPerRule[e.rule];
        }
        if (m_csv)
            std::fprintf(m_out, "%lld,%s,%s,%s\n", static_cast<long long>(e.second),
                         m_monitor->name(e.rule).c_str(), e.firing ? "firing" : "cleared",
                         valueText(e.value).c_str());
        m_events.push_back(e);
    }
    if (m_csv && !events.empty())
        std::fflush(m_out);
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

std::optional<std::unique_ptr<AlertRun>> alertRunFrom(const QCommandLineParser& parser,
                                                      const QCommandLineOption& option,
                                                      std::chrono::seconds window, std::FILE* out,
                                                      bool csv) {
    if (!parser.isSet(option))
        return std::unique_ptr<AlertRun>();
    std::vector<AlertRule> rules;
    for (const QString& value : parser.values(option)) {
        const std::string text = value.toStdString();
        auto parsed = AlertRule::parse(text);
        if (const auto* problem = std::get_if<TextProblem>(&parsed)) {
            printError(QStringLiteral("--alert '%1': %2")
                           .arg(value, QString::fromStdString(describeAlertProblem(*problem))));
            return std::nullopt;
        }
        rules.push_back(std::move(std::get<AlertRule>(parsed)));
    }
    try {
        return std::make_unique<AlertRun>(std::make_unique<AlertMonitor>(std::move(rules), window),
                                          out, csv);
    } catch (const std::exception& e) {  // two rules of one name, too many filters
        printError(QStringLiteral("--alert: %1").arg(QString::fromStdString(e.what())));
        return std::nullopt;
    }
}

}  // namespace hitcounter::cli
