#include "ui/sources/sources_panel.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/sources/kind_controls.h"
#include "ui/sources/source_specs.h"

namespace hitcounter::ui {

QSize SourcesPanel::sizeHint() const {
    return QSize(minimumSizeHint().width(), QWidget::sizeHint().height());
}

SourcesPanel::SourcesPanel(QWidget* parent) : QWidget(parent), m_kinds(makeKindControls()) {
    setObjectName(QStringLiteral("sourcesPanel"));

    m_runningLabel = new QLabel;
    m_runningLabel->setObjectName(QStringLiteral("runningLabel"));
    m_runningLabel->setWordWrap(true);
    m_runningLabel->setToolTip(tr("The source feeding the counters now"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_runningLabel);
    for (KindControls* kind : m_kinds) {
        connect(kind, &KindControls::startRequested, this, &SourcesPanel::startRequested);
        connect(kind, &KindControls::stopRequested, this, &SourcesPanel::stopRequested);
        connect(kind, &KindControls::edited, this, &SourcesPanel::edited);
        connect(kind, &KindControls::openFileRequested, this, &SourcesPanel::openTraceRequested);
        layout->addWidget(kind);
    }

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
    layout->addWidget(recordBox);
    layout->addStretch(1);
    showSpec(SourceSpec{}, false);
}

void SourcesPanel::showSpec(const SourceSpec& spec, bool running) {
    for (KindControls* kind : m_kinds) {
        kind->showSpec(spec, running);
    }
    m_running = running ? m_kinds[spec.index()] : nullptr;
    m_runningLabel->setText(running ? tr("<b>Running:</b> %1").arg(kindName(spec))
                                    : tr("<b>No source running</b>"));
}

void SourcesPanel::showSpecs(const SourceSpecs& specs) {
    for (const SourceSpec& spec : specs.all()) {
        showSpec(spec, false);
    }
}

void SourcesPanel::keepSpec(const SourceSpec& spec) {
    for (KindControls* kind : m_kinds) {
        kind->keepSpec(spec);
    }
}

void SourcesPanel::showFigures(const QString& text) {
    if (m_running != nullptr) {
        m_running->showFigures(text);
    }
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
