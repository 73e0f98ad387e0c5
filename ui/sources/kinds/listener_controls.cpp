#include "ui/sources/kinds/listener_controls.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace hitcounter::ui {

KindControls* ListenerSpec::makeControls() {
    return new ListenerControls;
}

ListenerControls::ListenerControls() : ControlsFor(tr("Socket listener")) {
    m_protocol = new QComboBox;
    m_protocol->setObjectName(QStringLiteral("protocolBox"));
    // In the order of ListenerSpec::Protocol.
    m_protocol->addItem(tr("statsd over UDP"));
    m_protocol->addItem(tr("statsd over TCP"));
    m_protocol->addItem(tr("Graphite over TCP"));
    m_protocol->setToolTip(tr("statsd lines name:value|c; Graphite lines path value timestamp"));
    m_host = new QLineEdit(QStringLiteral("127.0.0.1"));
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_host->setToolTip(tr("Address to bind: 127.0.0.1 for this machine only, 0.0.0.0 for all"));
    m_port = new QSpinBox;
    m_port->setObjectName(QStringLiteral("portBox"));
    m_port->setRange(0, 65535);
    m_port->setValue(8125);
    m_port->setToolTip(tr("Port to listen on (statsd's usual is 8125, Graphite's 2003)"));
    m_button = new QPushButton(tr("Start listening"));
    m_button->setObjectName(QStringLiteral("listenButton"));
    m_button->setToolTip(
        tr("Bind the address and count what arrives; a taken port is "
           "reported above the plots"));
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (m_listening) {
            Q_EMIT stopRequested();
        } else {
            Q_EMIT startRequested(controlsSpec());
        }
    });
    m_figures = new QLabel;
    m_figures->setObjectName(QStringLiteral("listenerStats"));
    m_figures->setWordWrap(true);
    m_figures->setTextFormat(Qt::PlainText);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setToolTip(
        tr("Lines received, bad lines (malformed) and ignored lines (well-formed but not hits, "
           "e.g. statsd gauges); below, the last bad line of each problem with its sender"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Protocol"), m_protocol);
    form->addRow(tr("Address"), m_host);
    form->addRow(tr("Port"), m_port);
    form->addRow(m_button);
    form->addRow(m_figures);
}

ListenerSpec ListenerControls::controlsSpec() const {
    ListenerSpec spec;
    spec.protocol = ListenerSpec::Protocol(m_protocol->currentIndex());
    const QString host = m_host->text().trimmed();
    spec.address = (host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host) +
                   QStringLiteral(":") + QString::number(m_port->value());
    return spec;
}

void ListenerControls::showFigures(const QString& text) {
    if (m_figures->text() != text) {
        m_figures->setText(text);
    }
}

void ListenerControls::fill(const ListenerSpec* spec, bool running) {
    if (spec != nullptr) {
        m_protocol->setCurrentIndex(int(spec->protocol));
        const qsizetype colon = spec->address.lastIndexOf(QLatin1Char(':'));
        if (colon > 0) {
            QString host = spec->address.left(colon);
            host.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
            m_host->setText(host);
            m_port->setValue(spec->address.mid(colon + 1).toInt());
        }
    }
    m_listening = running;
    if (!m_listening) {
        m_figures->clear();
    }
    m_button->setText(m_listening ? tr("Stop listening") : tr("Start listening"));
}

}  // namespace hitcounter::ui
