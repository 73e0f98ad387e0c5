#include "ui/sources/sources_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "core/fleet/redis_url.h"

namespace hitcounter::ui {

namespace {
// The rate slider is logarithmic: 10 steps per decade from 1 to 10^7 hits/s.
constexpr int kRateStepsPerDecade = 10;
constexpr int kRateDecades = 7;

QString rateText(double rate) {
    if (rate >= 1e6) {
        return QObject::tr("%1 M hits/s").arg(rate / 1e6, 0, 'g', 3);
    }
    if (rate >= 1e3) {
        return QObject::tr("%1 k hits/s").arg(rate / 1e3, 0, 'g', 3);
    }
    return QObject::tr("%1 hits/s").arg(rate, 0, 'g', 3);
}

QString redacted(const QString& redisUrl) {
    return QString::fromStdString(fleet::redactedRedisUrl(redisUrl.toStdString()));
}
}  // namespace

QSize SourcesPanel::sizeHint() const {
    return QSize(minimumSizeHint().width(), QWidget::sizeHint().height());
}

double SourcesPanel::rateFromSlider(int position) {
    return std::round(std::pow(10.0, double(position) / kRateStepsPerDecade));
}

int SourcesPanel::sliderFromRate(double rate) {
    return int(std::lround(std::log10(std::max(1.0, rate)) * kRateStepsPerDecade));
}

SourcesPanel::SourcesPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sourcesPanel"));

    // Simulator
    m_pattern = new QComboBox;
    m_pattern->setObjectName(QStringLiteral("patternBox"));
    for (std::string_view name : trafficPatternNames()) {
        m_pattern->addItem(QString::fromUtf8(name.data(), qsizetype(name.size())));
    }
    m_pattern->setToolTip(
        tr("Shape of the simulated traffic: steady, poisson, burst (spikes), "
           "diurnal (a daily wave) or viral (one key takes off)"));
    connect(m_pattern, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (auto p = trafficPatternFromName(name.toStdString()); p && !m_updating) {
            Q_EMIT patternChanged(*p);
        }
    });
    m_rate = new QSlider(Qt::Horizontal);
    m_rate->setObjectName(QStringLiteral("rateSlider"));
    m_rate->setRange(0, kRateDecades * kRateStepsPerDecade);
    m_rate->setToolTip(tr("Simulated hits per second, 1 to 10 million (logarithmic)"));
    m_rateLabel = new QLabel;
    m_rateLabel->setMinimumWidth(90);
    connect(m_rate, &QSlider::valueChanged, this, [this](int v) {
        m_rateLabel->setText(rateText(rateFromSlider(v)));
        if (!m_updating) {
            Q_EMIT rateChanged(rateFromSlider(v));
        }
    });
    m_keys = new QSpinBox;
    m_keys->setObjectName(QStringLiteral("keysBox"));
    m_keys->setRange(1, 1000000);
    m_keys->setToolTip(tr("Number of distinct keys (pages), Zipf popularity; applies on Start"));
    m_speed = new QComboBox;
    m_speed->setObjectName(QStringLiteral("speedBox"));
    for (double s : SourceSpec::kSpeeds) {
        m_speed->addItem(tr("%1×").arg(s), s);
    }
    m_speed->setToolTip(tr("How fast simulated (or replayed) time runs against the wall clock"));
    connect(m_speed, &QComboBox::activated, this,
            [this](int i) { Q_EMIT speedChanged(m_speed->itemData(i).toDouble()); });
    auto* simStart = m_simStart = new QPushButton(tr("Start simulator"));
    simStart->setObjectName(QStringLiteral("simulatorStart"));
    simStart->setToolTip(tr("(Re)start the simulator with these settings; the counters restart"));
    connect(simStart, &QPushButton::clicked, this,
            [this] { Q_EMIT startRequested(simulatorSpec()); });
    auto* rateRow = new QHBoxLayout;
    rateRow->addWidget(m_rate, 1);
    rateRow->addWidget(m_rateLabel);
    auto* simBox = new QGroupBox(tr("Simulator"));
    auto* simForm = new QFormLayout(simBox);
    simForm->addRow(tr("Pattern"), m_pattern);
    simForm->addRow(tr("Rate"), rateRow);
    simForm->addRow(tr("Keys"), m_keys);
    simForm->addRow(tr("Speed"), m_speed);
    simForm->addRow(simStart);

    // Listener
    m_protocol = new QComboBox;
    m_protocol->setObjectName(QStringLiteral("protocolBox"));
    m_protocol->addItem(tr("statsd over UDP"), int(SourceSpec::Kind::StatsdUdp));
    m_protocol->addItem(tr("statsd over TCP"), int(SourceSpec::Kind::StatsdTcp));
    m_protocol->addItem(tr("Graphite over TCP"), int(SourceSpec::Kind::GraphiteTcp));
    m_protocol->setToolTip(tr("statsd lines name:value|c; Graphite lines path value timestamp"));
    m_host = new QLineEdit(QStringLiteral("127.0.0.1"));
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_host->setToolTip(tr("Address to bind: 127.0.0.1 for this machine only, 0.0.0.0 for all"));
    m_port = new QSpinBox;
    m_port->setObjectName(QStringLiteral("portBox"));
    m_port->setRange(0, 65535);
    m_port->setValue(8125);
    m_port->setToolTip(tr("Port to listen on (statsd's usual is 8125, Graphite's 2003)"));
    m_listenButton = new QPushButton(tr("Start listening"));
    m_listenButton->setObjectName(QStringLiteral("listenButton"));
    m_listenButton->setToolTip(
        tr("Bind the address and count what arrives; a taken port is "
           "reported above the plots"));
    connect(m_listenButton, &QPushButton::clicked, this, [this] {
        if (m_listening) {
            Q_EMIT stopRequested();
        } else {
            Q_EMIT startRequested(listenerSpec());
        }
    });
    auto* listenBox = new QGroupBox(tr("Socket listener"));
    auto* listenForm = new QFormLayout(listenBox);
    listenForm->addRow(tr("Protocol"), m_protocol);
    listenForm->addRow(tr("Address"), m_host);
    listenForm->addRow(tr("Port"), m_port);
    listenForm->addRow(m_listenButton);
    // What the listener received: counts, then the last bad line of each problem with its
    // sender (ui/sources/listener_status.h).
    m_listenerStats = new QLabel;
    m_listenerStats->setObjectName(QStringLiteral("listenerStats"));
    m_listenerStats->setWordWrap(true);
    m_listenerStats->setTextFormat(Qt::PlainText);
    m_listenerStats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_listenerStats->setToolTip(
        tr("Lines received, bad lines (malformed) and ignored lines (well-formed but not hits, "
           "e.g. statsd gauges); below, the last bad line of each problem with its sender"));
    listenForm->addRow(m_listenerStats);

    // Replay
    auto* open = new QPushButton(tr("Open trace…"));
    open->setObjectName(QStringLiteral("openTrace"));
    open->setToolTip(
        tr("Replay a trace CSV (time,key,visitor) with seek, speed and loop (Ctrl+O)"));
    connect(open, &QPushButton::clicked, this, &SourcesPanel::openTraceRequested);
    m_replayFile = new QLabel(tr("no trace open"));
    m_replayFile->setWordWrap(true);
    const QString keyTip =
        tr("What an access-log line counts as: its path without the query (default), path with "
           "query, status, method, virtual host or client address. Trace CSV files keep their "
           "own keys.");
    m_replayKey = new QComboBox;
    m_replayKey->setObjectName(QStringLiteral("replayKeyBox"));
    m_replayKey->addItems(accessLogKeyNames());
    m_replayKey->setToolTip(keyTip);
    connect(m_replayKey, &QComboBox::activated, this,
            [this] { Q_EMIT replayKeyChanged(m_replayKey->currentText()); });
    auto* replayBox = new QGroupBox(tr("Replay"));
    auto* replayLayout = new QVBoxLayout(replayBox);
    replayLayout->addWidget(open);
    replayLayout->addWidget(m_replayFile);
    auto* replayKeyForm = new QFormLayout;
    replayKeyForm->addRow(tr("Log key"), m_replayKey);
    replayLayout->addLayout(replayKeyForm);

    // Follow access log
    m_followFile = new QLineEdit;
    m_followFile->setObjectName(QStringLiteral("followFileEdit"));
    m_followFile->setPlaceholderText(QStringLiteral("/var/log/nginx/access.log"));
    m_followFile->setToolTip(
        tr("A web server access log being written (combined, common, JSON lines), followed "
           "like tail -F across rotation and truncation"));
    auto* browse = new QPushButton(tr("…"));
    browse->setObjectName(QStringLiteral("followBrowse"));
    browse->setToolTip(tr("Choose the log file"));
    browse->setMaximumWidth(32);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Follow access log"),
            m_followFile->text().isEmpty() ? QStringLiteral("/var/log")
                                           : QFileInfo(m_followFile->text()).absolutePath(),
            tr("Access logs (*.log *access*);;All files (*)"));
        if (!file.isEmpty()) {
            m_followFile->setText(file);
        }
    });
    m_followKey = new QComboBox;
    m_followKey->setObjectName(QStringLiteral("followKeyBox"));
    m_followKey->addItems(accessLogKeyNames());
    m_followKey->setToolTip(keyTip);
    m_followFromStart = new QCheckBox(tr("Read the lines already there"));
    m_followFromStart->setObjectName(QStringLiteral("followFromStart"));
    m_followFromStart->setToolTip(tr("Off: start at the end of the log, like tail -F"));
    m_followButton = new QPushButton(tr("Start following"));
    m_followButton->setObjectName(QStringLiteral("followButton"));
    connect(m_followButton, &QPushButton::clicked, this, [this] {
        if (m_following) {
            Q_EMIT stopRequested();
        } else {
            Q_EMIT startRequested(followSpec());
        }
    });
    m_followStats = new QLabel;
    m_followStats->setObjectName(QStringLiteral("followStats"));
    m_followStats->setWordWrap(true);
    m_followStats->setToolTip(
        tr("Lines read, hits counted, bad lines skipped, rotations (rename) and truncations "
           "(copytruncate) seen"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_followFile, 1);
    fileRow->addWidget(browse);
    auto* followBox = new QGroupBox(tr("Follow access log"));
    auto* followForm = new QFormLayout(followBox);
    followForm->addRow(tr("File"), fileRow);
    followForm->addRow(tr("Log key"), m_followKey);
    followForm->addRow(m_followFromStart);
    followForm->addRow(m_followButton);
    followForm->addRow(m_followStats);

    // Fleet (Redis): the Fleet tab reads what many instances flushed (fleet_view.h).
    m_redisUrl = new QLineEdit(SourceSpec{}.redisUrl);
    m_redisUrl->setObjectName(QStringLiteral("redisUrlEdit"));
    m_redisUrl->setToolTip(
        tr("The fleet's Redis: redis://[USER@]HOST:PORT[/DB], any one node of a Redis Cluster; "
           "the password from HITCOUNTER_REDIS_PASSWORD, or typed as redis://:PASSWORD@HOST:PORT "
           "for this session only (never saved or shown; docs/redis.md)"));
    m_redisButton = new QPushButton(tr("Watch fleet"));
    m_redisButton->setObjectName(QStringLiteral("redisButton"));
    m_redisButton->setToolTip(
        tr("Read the fleet's window, top items, instances and cluster nodes from Redis every "
           "second in the Fleet tab (the local source stops)"));
    connect(m_redisButton, &QPushButton::clicked, this, [this] {
        if (m_watchingFleet) {
            Q_EMIT stopRequested();
        } else {
            Q_EMIT startRequested(redisSpec());
        }
    });
    connect(m_redisUrl, &QLineEdit::returnPressed, m_redisButton, &QPushButton::click);
    auto* redisBox = new QGroupBox(tr("Fleet (Redis)"));
    auto* redisForm = new QFormLayout(redisBox);
    redisForm->addRow(tr("URL"), m_redisUrl);
    redisForm->addRow(m_redisButton);

    // Recording
    m_record = new QCheckBox(tr("Record to a trace file"));
    m_record->setObjectName(QStringLiteral("recordBox"));
    m_record->setToolTip(
        tr("Write every hit the monitor receives to a trace CSV (flushed each "
           "second, renamed into place when recording stops)"));
    connect(m_record, &QCheckBox::toggled, this, [this](bool on) {
        if (!m_updating) {
            Q_EMIT recordToggled(on);
        }
    });
    m_recordStatus = new QLabel;
    m_recordStatus->setWordWrap(true);
    auto* recordBox = new QGroupBox(tr("Recording"));
    auto* recordLayout = new QVBoxLayout(recordBox);
    recordLayout->addWidget(m_record);
    recordLayout->addWidget(m_recordStatus);

    m_running = new QLabel;
    m_running->setObjectName(QStringLiteral("runningLabel"));
    m_running->setWordWrap(true);
    m_running->setToolTip(tr("The source feeding the counters now"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_running);
    layout->addWidget(simBox);
    layout->addWidget(listenBox);
    layout->addWidget(replayBox);
    layout->addWidget(followBox);
    layout->addWidget(redisBox);
    layout->addWidget(recordBox);
    layout->addStretch(1);
    showSpec(SourceSpec{}, false);
}

SourceSpec SourcesPanel::simulatorSpec() const {
    SourceSpec spec;
    spec.kind = SourceSpec::Kind::Simulator;
    spec.pattern =
        trafficPatternFromName(m_pattern->currentText().toStdString()).value_or(spec.pattern);
    spec.rate = rateFromSlider(m_rate->value());
    spec.keys = m_keys->value();
    spec.speed = m_speed->currentData().toDouble();
    return spec;
}

SourceSpec SourcesPanel::listenerSpec() const {
    SourceSpec spec;
    spec.kind = SourceSpec::Kind(m_protocol->currentData().toInt());
    const QString host = m_host->text().trimmed();
    spec.address = (host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host) +
                   QStringLiteral(":") + QString::number(m_port->value());
    return spec;
}

SourceSpec SourcesPanel::followSpec() const {
    SourceSpec spec;
    spec.kind = SourceSpec::Kind::Follow;
    spec.file = m_followFile->text().trimmed();
    spec.key = m_followKey->currentText();
    spec.fromStart = m_followFromStart->isChecked();
    return spec;
}

SourceSpec SourcesPanel::redisSpec() const {
    SourceSpec spec;
    spec.kind = SourceSpec::Kind::Redis;
    const QString text = m_redisUrl->text().trimmed();
    // The field shows the running URL's password as ***: unchanged, it means that URL.
    spec.redisUrl =
        !m_shownRedisUrl.isEmpty() && text == redacted(m_shownRedisUrl) ? m_shownRedisUrl : text;
    return spec;
}

void SourcesPanel::showFollowStats(const QString& text) {
    m_followStats->setText(text);
}

void SourcesPanel::showListenerStats(const QString& text) {
    if (m_listenerStats->text() != text) {
        m_listenerStats->setText(text);
    }
}

QString SourcesPanel::listenerStatsText() const {
    return m_listenerStats->text();
}

void SourcesPanel::showSpec(const SourceSpec& spec, bool running) {
    m_updating = true;
    const std::string_view pattern = trafficPatternName(spec.pattern);
    m_pattern->setCurrentText(QString::fromUtf8(pattern.data(), qsizetype(pattern.size())));
    m_rate->setValue(sliderFromRate(spec.rate));
    m_rateLabel->setText(rateText(rateFromSlider(m_rate->value())));
    m_keys->setValue(spec.keys);
    const int speed = m_speed->findData(spec.speed);
    m_speed->setCurrentIndex(speed >= 0 ? speed : m_speed->findData(1.0));
    const bool listener = spec.kind == SourceSpec::Kind::StatsdUdp ||
                          spec.kind == SourceSpec::Kind::StatsdTcp ||
                          spec.kind == SourceSpec::Kind::GraphiteTcp;
    if (listener) {
        m_protocol->setCurrentIndex(m_protocol->findData(int(spec.kind)));
        const qsizetype colon = spec.address.lastIndexOf(QLatin1Char(':'));
        if (colon > 0) {
            QString host = spec.address.left(colon);
            host.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
            m_host->setText(host);
            m_port->setValue(spec.address.mid(colon + 1).toInt());
        }
    }
    m_listening = running && listener;
    if (!m_listening) {
        m_listenerStats->clear();
    }
    const bool simulating = running && spec.kind == SourceSpec::Kind::Simulator;
    m_simStart->setText(simulating ? tr("Restart simulator") : tr("Start simulator"));
    m_listenButton->setText(m_listening ? tr("Stop listening") : tr("Start listening"));
    if (spec.kind == SourceSpec::Kind::Replay && !spec.file.isEmpty()) {
        m_replayFile->setText(QFileInfo(spec.file).fileName());
        m_replayFile->setToolTip(spec.file);
    }
    const int key = m_replayKey->findText(spec.key);
    if (spec.kind == SourceSpec::Kind::Replay && key >= 0) {
        m_replayKey->setCurrentIndex(key);
    }
    const bool follow = spec.kind == SourceSpec::Kind::Follow;
    if (follow) {
        m_followFile->setText(spec.file);
        m_followFromStart->setChecked(spec.fromStart);
        if (key >= 0) {
            m_followKey->setCurrentIndex(key);
        }
    }
    m_following = running && follow;
    m_followButton->setText(m_following ? tr("Stop following") : tr("Start following"));
    if (!m_following) {
        m_followStats->clear();
    }
    const bool redis = spec.kind == SourceSpec::Kind::Redis;
    if (redis) {
        m_shownRedisUrl = spec.redisUrl;
        m_redisUrl->setText(redacted(spec.redisUrl));
    }
    m_watchingFleet = running && redis;
    m_redisButton->setText(m_watchingFleet ? tr("Stop watching") : tr("Watch fleet"));
    m_running->setText(running ? tr("<b>Running:</b> %1").arg(kindName(spec.kind))
                               : tr("<b>No source running</b>"));
    m_updating = false;
}

void SourcesPanel::showRecording(const QString& text) {
    m_recordStatus->setText(text);
}

void SourcesPanel::setRecordingChecked(bool on) {
    m_updating = true;
    m_record->setChecked(on);
    m_updating = false;
}

}  // namespace hitcounter::ui
