#include "ui/sources/kinds/replay_controls.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/sources/kinds/filter_edit.h"
#include "ui/sources/replay_texts.h"

namespace hitcounter::ui {

KindControls* ReplaySpec::makeControls() {
    return new ReplayControls;
}

ReplayControls::ReplayControls() : ControlsFor(tr("Replay")) {
    auto* open = new QPushButton(tr("Open trace…"));
    open->setObjectName(QStringLiteral("openTrace"));
    open->setToolTip(
        tr("Replay a trace CSV (time,key,visitor) or an access log with seek, speed and loop "
           "(Ctrl+O); several files chosen together are replayed as one, merged in time order "
           "(a rotation set oldest first)"));
    connect(open, &QPushButton::clicked, this, &KindControls::openFileRequested);
    m_file = new QLabel(tr("no trace open"));
    m_file->setObjectName(QStringLiteral("replayFilesLabel"));
    m_file->setWordWrap(true);
    m_key = new QComboBox;
    m_key->setObjectName(QStringLiteral("replayKeyBox"));
    m_key->addItems(ReplaySpec::keyNames());
    m_key->setToolTip(accessLogKeyTip() + QLatin1Char(' ') +
                      tr("With several files, \"source\" counts each file (a rotation set as "
                         "one) as a key: which server a hit came from."));
    connect(m_key, &QComboBox::activated, this,
            [this] { edit([&](ReplaySpec& s) { s.key = m_key->currentText(); }); });
    m_filter = new FilterEdit(QStringLiteral("replayFilterEdit"));
    connect(m_filter, &FilterEdit::accepted, this,
            [this](const QString& filter) { edit([&](ReplaySpec& s) { s.filter = filter; }); });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(open);
    layout->addWidget(m_file);
    auto* keyForm = new QFormLayout;
    keyForm->addRow(tr("Log key"), m_key);
    keyForm->addRow(tr("Filter"), m_filter);
    layout->addLayout(keyForm);
}

void ReplayControls::fill(const ReplaySpec* spec, bool /*running*/) {
    if (spec == nullptr) {
        return;
    }
    if (!spec->file.isEmpty()) {
        m_file->setText(replayFilesName(spec->files()));
        m_file->setToolTip(spec->files().join(QLatin1Char('\n')));
    }
    if (const int key = m_key->findText(spec->key); key >= 0) {
        m_key->setCurrentIndex(key);
    }
    m_filter->setText(spec->filter);
}

}  // namespace hitcounter::ui
