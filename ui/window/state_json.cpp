#include "ui/window/state_json.h"

#include <QJsonArray>
#include <QJsonDocument>

#include "core/base/saturating.h"
#include "core/sources/source.h"
#include "core/sources/source_capabilities.h"
#include "ui/fleet/fleet_view.h"
#include "ui/monitor/overload_banner.h"
#include "ui/monitor/threshold_alerts.h"
#include "ui/plot/display_zone.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_status.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/view_state_json.h"
#include "ui/window/window_state.h"

namespace hitcounter::ui {

namespace {

// JSON written in a fixed field order (QJsonObject would sort the keys), compact, one object.
class JsonOut {
public:
    // A key of the object being written; the value follows.
    JsonOut& key(const QString& name) {
        separate();
        m_out += quoted(name) + ": ";
        m_fresh = true;  // the value is no element of its own
        return *this;
    }
    JsonOut& key(const char* name) { return key(QString::fromLatin1(name)); }
    JsonOut& key(const std::string& name) { return key(QString::fromStdString(name)); }
    JsonOut& number(qint64 value) { return raw(QByteArray::number(value)); }
    JsonOut& count(Count value) { return raw(QByteArray::number(quint64(value))); }
    JsonOut& decimal(double value, int decimals) {
        return raw(QByteArray::number(value, 'f', decimals));
    }
    JsonOut& boolean(bool value) { return raw(value ? "true" : "false"); }
    JsonOut& string(const QString& text) { return raw(quoted(text)); }
    JsonOut& string(const std::string& text) { return string(QString::fromStdString(text)); }
    // JSON text written elsewhere (view_state_json.h), spliced in as the value.
    JsonOut& json(const QByteArray& text) { return raw(text); }
    JsonOut& beginObject() { return open('{'); }
    JsonOut& endObject() { return close('}'); }
    JsonOut& beginArray() { return open('['); }
    JsonOut& endArray() { return close(']'); }
    QByteArray take() { return std::move(m_out) + '\n'; }

private:
    static QByteArray quoted(const QString& text) {
        const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
        return array.mid(1, array.size() - 2);  // the string without the array's brackets
    }
    void separate() {
        if (!m_fresh) {
            m_out += ", ";
        }
        m_fresh = false;
    }
    JsonOut& raw(const QByteArray& value) {
        separate();
        m_out += value;
        return *this;
    }
    JsonOut& open(char bracket) {
        separate();
        m_out += bracket;
        m_fresh = true;
        return *this;
    }
    JsonOut& close(char bracket) {
        m_out += bracket;
        m_fresh = false;
        return *this;
    }

    QByteArray m_out;
    bool m_fresh = true;  // nothing written at this level yet: no comma before the next
};

// time, total, policies, keys: the window's counts.
void writeCounts(JsonOut& out, const MainWindow& window, Timestamp time) {
    const EngineSnapshot& s = window.views().snapshot();
    out.key("time").number(qint64(time));
    out.key("total").count(s.totalHits);
    out.key("policies").beginObject();
    for (const PolicyState& p : s.policies) {
        out.key(p.name).count(p.count);
    }
    out.endObject();
    out.key("keys").beginArray();
    if (const EngineFrame* frame = window.views().lastFrame()) {
        for (const KeyRow& row : frame->top) {
            out.beginObject();
            out.key("key").string(row.key);
            out.key("window").count(row.window);
            out.key("all_time").count(row.allTime);
            out.key("uniques").count(row.uniques);
            out.endObject();
        }
    }
    out.endArray();
}

// time_zone: the zone every time on screen is shown in.
void writeTimeZone(JsonOut& out, Timestamp time) {
    const DisplayZone& zone = shownZone();
    out.key("time_zone").string(zone.offsetName(time));
    out.key("time_zone_choice").string(zoneChoiceName(zone.choice));
    out.key("time_zone_name").string(zone.name);
    out.key("utc_offset_seconds").number(zone.zone.offsetFromUtc(zone.at(time)));
}

// source: what runs, its state and the warnings the window shows.
void writeSource(JsonOut& out, const MainWindow& window) {
    Source* source = window.session()->source();
    out.key("source").beginObject();
    out.key("kind").string(kindName(window.session()->spec()));
    out.key("state").string(sourceStateName(source, window.paused()));
    out.key("description").string(source ? source->describe() : std::string());
    if (const FileSourceSpec* file = fileSourceOf(window.session()->spec())) {
        out.key("filter").string(file->filter);
    }
    if (const Seekable* replay = window.session()->seekable()) {
        out.key("filtered_lines").count(replay->progress().filtered);
    }
    out.key("warnings").beginArray();
    for (const QString& warning : windowWarnings(window)) {
        out.string(warning);
    }
    out.endArray();
    out.endObject();
}

// per_second: the live plot's last W seconds, per status class.
void writePerSecond(JsonOut& out, const MainWindow& window) {
    const EngineSnapshot& s = window.views().snapshot();
    out.key("per_second").beginArray();
    for (const SecondRecord& r : window.views().history()) {
        if (s.empty || r.second <= s.head - s.windowSeconds || r.second > s.head) {
            continue;
        }
        out.beginObject();
        out.key("t").number(qint64(r.second));
        out.key("hits").count(r.hits);
        out.key("2xx").count(r.statusHits[2]);
        out.key("3xx").count(r.statusHits[3]);
        out.key("4xx").count(r.statusHits[4]);
        out.key("5xx").count(r.statusHits[5]);
        out.key("other").count(saturatingAdd(r.statusHits[0], r.statusHits[1]));
        out.endObject();
    }
    out.endArray();
}

// ring: the ring's slots as the histogram draws them.
void writeRing(JsonOut& out, const MainWindow& window) {
    const EngineSnapshot& s = window.views().snapshot();
    out.key("ring").beginArray();
    for (std::size_t i = 0; i < s.slots.size(); ++i) {
        const RingCounter::Slot& slot = s.slots[i];
        out.beginObject();
        out.key("slot").number(qint64(i));
        out.key("second").number(qint64(slot.second));
        out.key("count").count(slot.count);
        out.key("in_window").boolean(slot.inWindow);
        out.endObject();
    }
    out.endArray();
}

// alerts: the threshold crossings the alerts list shows.
void writeAlerts(JsonOut& out, const MainWindow& window) {
    static const std::string kKeyPrefix = "key ";
    out.key("alerts").beginArray();
    for (const ThresholdCrossing& c : window.thresholdAlerts()->crossings()) {
        out.beginObject();
        out.key("key").string(c.series.rfind(kKeyPrefix, 0) == 0 ? c.series.substr(4) : c.series);
        out.key("threshold").count(c.threshold);
        out.key("time").number(qint64(c.second));
        out.key("direction")
            .string(QString::fromLatin1(c.direction == CrossingDirection::Up ? "up" : "down"));
        out.key("value").count(c.value);
        out.endObject();
    }
    out.endArray();
}

// costs: the policy comparison's measured figures; fleet: only while the Fleet tab is shown.
void writeCostsAndFleet(JsonOut& out, const MainWindow& window) {
    const EngineFrame* frame = window.views().lastFrame();
    out.key("costs").json(costsJson(frame ? frame->costs : PolicyCosts{}));
    if (window.fleetView()->isVisibleTo(&window)) {
        out.key("fleet").json(fleetJson(*window.fleetView()));
    }
}

}  // namespace

QByteArray stateJson(const MainWindow& window, Timestamp time,
                     std::optional<std::chrono::duration<double, std::milli>> seekTook) {
    JsonOut out;
    out.beginObject();
    writeCounts(out, window, time);
    if (seekTook) {
        out.key("seek_ms").decimal(seekTook->count(), 1);
    }
    writeTimeZone(out, time);
    writeSource(out, window);
    writePerSecond(out, window);
    writeRing(out, window);
    writeAlerts(out, window);
    writeCostsAndFleet(out, window);
    out.endObject();
    return out.take();
}

}  // namespace hitcounter::ui
