// SourcesPanel: the dock on the left: simulator (pattern, rate, keys, speed), socket
// listener (protocol, address, port, start/stop), replay (open a trace or an access log, and
// the access-log key), follow access log (file, key, from start, start/stop, its stats) and
// recording.
//
// GUI thread only. The panel holds no source: it emits requests that the main window carries
// out, and shows the spec of what runs (showSpec). Rate, pattern and speed apply at once to a
// running simulator; keys apply when the simulator is (re)started.
#pragma once

#include <QWidget>

#include "ui/sources/source_spec.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;

namespace hitcounter::ui {

class SourcesPanel : public QWidget {
    Q_OBJECT
public:
    explicit SourcesPanel(QWidget* parent = nullptr);

    // Shows `spec` in the controls (without emitting requests) and marks what runs.
    void showSpec(const SourceSpec& spec, bool running);
    void showRecording(const QString& text);
    void setRecordingChecked(bool on);
    // The spec the simulator controls describe now.
    SourceSpec simulatorSpec() const;
    SourceSpec listenerSpec() const;
    SourceSpec followSpec() const;
    SourceSpec redisSpec() const;
    // The follow source's figures (source_status.h), shown under its controls.
    void showFollowStats(const QString& text);
    // The running listener's counts and last bad lines (listener_status.h); cleared when no
    // listener runs.
    void showListenerStats(const QString& text);
    QString listenerStatsText() const;

    // As narrow as its controls allow (the dock takes less of a 1024 px wide window); rows
    // with a slider or a file name get the width the dock is given.
    QSize sizeHint() const override;

    static double rateFromSlider(int position);
    static int sliderFromRate(double rate);

Q_SIGNALS:
    void startRequested(const hitcounter::ui::SourceSpec& spec);
    void stopRequested();
    void openTraceRequested();
    // The replay's access-log key was changed (AccessLogKey name).
    void replayKeyChanged(const QString& key);
    void rateChanged(double hitsPerSecond);
    void patternChanged(hitcounter::TrafficPattern pattern);
    void speedChanged(double speed);
    void recordToggled(bool on);

private:
    QComboBox* m_pattern;
    QSlider* m_rate;
    QLabel* m_rateLabel;
    QSpinBox* m_keys;
    QComboBox* m_speed;
    QComboBox* m_protocol;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QPushButton* m_listenButton;
    QLabel* m_replayFile;
    QComboBox* m_replayKey;
    QLineEdit* m_followFile;
    QComboBox* m_followKey;
    QCheckBox* m_followFromStart;
    QPushButton* m_followButton;
    QLabel* m_followStats;
    QLabel* m_listenerStats;
    QPushButton* m_simStart;
    bool m_following = false;
    QLineEdit* m_redisUrl;
    QString m_shownRedisUrl;  // the URL of the fleet watched, with its password
    QPushButton* m_redisButton;
    bool m_watchingFleet = false;
    QCheckBox* m_record;
    QLabel* m_recordStatus;
    QLabel* m_running;
    bool m_listening = false;
    bool m_updating = false;
};

}  // namespace hitcounter::ui
