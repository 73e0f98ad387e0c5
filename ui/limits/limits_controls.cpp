#include "ui/limits/limits_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>

#include "core/limiters/limiter_factory.h"
#include "ui/common/settings_reader.h"
#include "ui/limits/limiter_style.h"

namespace hitcounter::ui {

LimitsControls::LimitsControls(QWidget* parent) : QWidget(parent) {
    // Controls: L per W, scope, algorithms, Apply.
    m_limitBox = new QSpinBox;
    m_limitBox->setObjectName(QStringLiteral("limitBox"));
    m_limitBox->setRange(1, 1'000'000'000);
    m_limitBox->setValue(100);
    m_limitBox->setToolTip(tr("L: requests each key may make per period"));
    m_perBox = new QSpinBox;
    m_perBox->setObjectName(QStringLiteral("perBox"));
    m_perBox->setRange(1, 86400 * 7);
    m_perBox->setValue(60);
    m_perBox->setSuffix(tr(" s"));
    m_perBox->setToolTip(tr("W: the period in whole seconds"));
    m_scopeBox = new QComboBox;
    m_scopeBox->setObjectName(QStringLiteral("scopeBox"));
    m_scopeBox->addItem(tr("per key"), true);
    m_scopeBox->addItem(tr("all traffic as one key"), false);
    m_scopeBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_scopeBox->setToolTip(
        tr("Per key: every key has its own limiter (idle keys evicted). All traffic: one "
           "limiter for everything."));
    auto* controls = new QHBoxLayout(this);
    controls->setContentsMargins(4, 2, 4, 2);
    controls->addWidget(new QLabel(tr("L")));
    controls->addWidget(m_limitBox);
    controls->addWidget(new QLabel(tr("per W")));
    controls->addWidget(m_perBox);
    controls->addSpacing(8);
    controls->addWidget(m_scopeBox);
    controls->addSpacing(8);
    for (const std::string_view name : limiterNames()) {
        auto* box = new QCheckBox(limiterName(name));
        box->setToolTip(limiterTitle(std::string(name)));
        box->setObjectName(QStringLiteral("algorithm_") + limiterName(name));
        box->setChecked(true);
        box->setProperty("algorithm", limiterName(name));
        m_algorithmBoxes.push_back(box);
        controls->addWidget(box);
    }
    auto* apply = new QPushButton(tr("Apply"));
    apply->setObjectName(QStringLiteral("limitsApply"));
    apply->setToolTip(
        tr("Restart every limiter with these settings. A replay is re-run from its start to "
           "where it stands (a seek fast-forward), so the lab equals a run from the start; a "
           "live source restarts the lab from now."));
    controls->addSpacing(8);
    controls->addWidget(apply);
    controls->addStretch(1);
    connect(apply, &QPushButton::clicked, this,
            [this] { Q_EMIT applyRequested(requestedOptions()); });
}

void LimitsControls::showOptions(const LimitsOptions& options) {
    m_limitBox->setValue(int(std::min<Count>(options.limit.limit, Count(m_limitBox->maximum()))));
    m_perBox->setValue(int(std::min<std::int64_t>(options.limit.per.count(), m_perBox->maximum())));
    m_scopeBox->setCurrentIndex(options.perKey ? 0 : 1);
    for (QCheckBox* box : m_algorithmBoxes) {
        const std::string name = box->property("algorithm").toString().toStdString();
        box->setChecked(std::find(options.algorithms.begin(), options.algorithms.end(), name) !=
                        options.algorithms.end());
    }
}

LimitsOptions LimitsControls::requestedOptions() const {
    LimitsOptions options;
    options.enabled = true;
    options.limit = RateLimit{Count(m_limitBox->value()), std::chrono::seconds(m_perBox->value())};
    options.perKey = m_scopeBox->currentData().toBool();
    options.algorithms.clear();
    for (QCheckBox* box : m_algorithmBoxes) {
        if (box->isChecked()) {
            options.algorithms.push_back(box->property("algorithm").toString().toStdString());
        }
    }
    return options;
}

void LimitsControls::saveSettings(QSettings& settings) const {
    const LimitsOptions o = requestedOptions();
    settings.setValue(QStringLiteral("limits/limit"), qulonglong(o.limit.limit));
    settings.setValue(QStringLiteral("limits/per"), qlonglong(o.limit.per.count()));
    settings.setValue(QStringLiteral("limits/perKey"), o.perKey);
    QStringList algorithms;
    for (const std::string& name : o.algorithms) {
        algorithms << QString::fromStdString(name);
    }
    settings.setValue(QStringLiteral("limits/algorithms"), algorithms);
}

void LimitsControls::restoreSettings(SettingsReader& settings) {
    LimitsOptions o = requestedOptions();
    o.limit.limit = Count(settings.wholeNumber(QStringLiteral("limits/limit"),
                                               qlonglong(o.limit.limit), 1, 1'000'000'000));
    o.limit.per = std::chrono::seconds(settings.wholeNumber(
        QStringLiteral("limits/per"), qlonglong(o.limit.per.count()), 1, 86400 * 7));
    o.perKey = settings.flag(QStringLiteral("limits/perKey"), o.perKey);
    if (settings.settings().contains(QStringLiteral("limits/algorithms"))) {
        o.algorithms.clear();
        for (const QString& name : settings.texts(QStringLiteral("limits/algorithms"))) {
            o.algorithms.push_back(name.toStdString());
        }
    }
    showOptions(o);  // unknown names are simply not ticked
}

}  // namespace hitcounter::ui
