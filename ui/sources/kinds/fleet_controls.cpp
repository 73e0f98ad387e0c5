#include "ui/sources/kinds/fleet_controls.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>

#include "core/fleet/redis_url.h"

namespace hitcounter::ui {

namespace {
QString redacted(const QString& redisUrl) {
    return QString::fromStdString(fleet::redactedRedisUrl(redisUrl.toStdString()));
}
}  // namespace

KindControls* FleetSpec::makeControls() {
    return new FleetControls;
}

FleetControls::FleetControls() : ControlsFor(tr("Fleet (Redis)")) {
    m_url = new QLineEdit(FleetSpec{}.redisUrl);
    m_url->setObjectName(QStringLiteral("redisUrlEdit"));
    m_url->setToolTip(
        tr("The fleet's Redis: redis://[USER@]HOST:PORT[/DB], any one node of a Redis Cluster; "
           "the password from HITCOUNTER_REDIS_PASSWORD, or typed as redis://:PASSWORD@HOST:PORT "
           "for this session only (never saved or shown; docs/redis.md)"));
    m_button = new QPushButton(tr("Watch fleet"));
    m_button->setObjectName(QStringLiteral("redisButton"));
    m_button->setToolTip(
        tr("Read the fleet's window, top items, instances and cluster nodes from Redis every "
           "second in the Fleet tab (the local source stops)"));
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (m_watching) {
            Q_EMIT stopRequested();
        } else {
            Q_EMIT startRequested(controlsSpec());
        }
    });
    connect(m_url, &QLineEdit::returnPressed, m_button, &QPushButton::click);
    auto* form = new QFormLayout(this);
    form->addRow(tr("URL"), m_url);
    form->addRow(m_button);
}

FleetSpec FleetControls::controlsSpec() const {
    FleetSpec spec;
    const QString text = m_url->text().trimmed();
    // The field shows the running URL's password as ***: unchanged, it means that URL.
    spec.redisUrl = !m_shownUrl.isEmpty() && text == redacted(m_shownUrl) ? m_shownUrl : text;
    return spec;
}

void FleetControls::fill(const FleetSpec* spec, bool running) {
    if (spec != nullptr) {
        m_shownUrl = spec->redisUrl;
        m_url->setText(redacted(spec->redisUrl));
    }
    m_watching = running;
    m_button->setText(m_watching ? tr("Stop watching") : tr("Watch fleet"));
}

}  // namespace hitcounter::ui
