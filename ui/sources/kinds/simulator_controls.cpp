#include "ui/sources/kinds/simulator_controls.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <cmath>

#include "ui/sources/kinds/speeds.h"

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

double rateFromSlider(int position) {
    return std::round(std::pow(10.0, double(position) / kRateStepsPerDecade));
}

int sliderFromRate(double rate) {
    return int(std::lround(std::log10(std::max(1.0, rate)) * kRateStepsPerDecade));
}
}  // namespace

KindControls* SimulatorSpec::makeControls() {
    return new SimulatorControls;
}

SimulatorControls::SimulatorControls() : ControlsFor(tr("Simulator")) {
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
            edit([&](SimulatorSpec& s) { s.pattern = *p; });
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
            edit([&](SimulatorSpec& s) { s.rate = rateFromSlider(v); });
        }
    });
    m_keys = new QSpinBox;
    m_keys->setObjectName(QStringLiteral("keysBox"));
    m_keys->setRange(1, 1000000);
    m_keys->setToolTip(tr("Number of distinct keys (pages), Zipf popularity; applies on Start"));
    m_speed = new QComboBox;
    m_speed->setObjectName(QStringLiteral("speedBox"));
    for (double s : kSpeeds) {
        m_speed->addItem(tr("%1×").arg(s), s);
    }
    m_speed->setToolTip(tr("How fast simulated (or replayed) time runs against the wall clock"));
    connect(m_speed, &QComboBox::activated, this, [this](int i) {
        edit([&](SimulatorSpec& s) { s.speed = m_speed->itemData(i).toDouble(); });
    });
    m_start = new QPushButton(tr("Start simulator"));
    m_start->setObjectName(QStringLiteral("simulatorStart"));
    m_start->setToolTip(tr("(Re)start the simulator with these settings; the counters restart"));
    connect(m_start, &QPushButton::clicked, this,
            [this] { Q_EMIT startRequested(controlsSpec()); });
    auto* rateRow = new QHBoxLayout;
    rateRow->addWidget(m_rate, 1);
    rateRow->addWidget(m_rateLabel);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Pattern"), m_pattern);
    form->addRow(tr("Rate"), rateRow);
    form->addRow(tr("Keys"), m_keys);
    form->addRow(tr("Speed"), m_speed);
    form->addRow(m_start);
}

SimulatorSpec SimulatorControls::controlsSpec() const {
    SimulatorSpec spec;
    spec.pattern =
        trafficPatternFromName(m_pattern->currentText().toStdString()).value_or(spec.pattern);
    spec.rate = rateFromSlider(m_rate->value());
    spec.keys = m_keys->value();
    spec.speed = m_speed->currentData().toDouble();
    return spec;
}

void SimulatorControls::fill(const SimulatorSpec* spec, bool running) {
    m_updating = true;
    if (spec != nullptr) {
        const std::string_view pattern = trafficPatternName(spec->pattern);
        m_pattern->setCurrentText(QString::fromUtf8(pattern.data(), qsizetype(pattern.size())));
        m_rate->setValue(sliderFromRate(spec->rate));
        m_rateLabel->setText(rateText(rateFromSlider(m_rate->value())));
        m_keys->setValue(spec->keys);
        const int speed = m_speed->findData(spec->speed);
        m_speed->setCurrentIndex(speed >= 0 ? speed : m_speed->findData(1.0));
    }
    m_start->setText(running ? tr("Restart simulator") : tr("Start simulator"));
    m_updating = false;
}

}  // namespace hitcounter::ui
