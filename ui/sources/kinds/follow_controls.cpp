#include "ui/sources/kinds/follow_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include "ui/sources/kinds/filter_edit.h"
#include "ui/sources/replay_texts.h"

namespace hitcounter::ui {

KindControls* FollowSpec::makeControls() {
    return new FollowControls;
}

FollowControls::FollowControls() : ControlsFor(tr("Follow access log")) {
    m_file = new QLineEdit;
    m_file->setObjectName(QStringLiteral("followFileEdit"));
    m_file->setPlaceholderText(QStringLiteral("/var/log/nginx/access.log"));
    m_file->setToolTip(
        tr("A web server access log being written (combined, common, JSON lines), followed "
           "like tail -F across rotation and truncation"));
    auto* browse = new QPushButton(tr("…"));
    browse->setObjectName(QStringLiteral("followBrowse"));
    browse->setToolTip(
        tr("Choose the log file, or several (several servers' logs, followed "
           "into the one window)"));
    browse->setMaximumWidth(32);
    connect(browse, &QPushButton::clicked, this, &FollowControls::chooseFile);
    m_more = new QLabel;
    m_more->setObjectName(QStringLiteral("followMoreFiles"));
    m_more->setVisible(false);
    connect(m_file, &QLineEdit::textEdited, this, &FollowControls::showMoreFiles);
    m_key = new QComboBox;
    m_key->setObjectName(QStringLiteral("followKeyBox"));
    m_key->addItems(accessLogKeyNames());
    m_key->setToolTip(accessLogKeyTip());
    m_filter = new FilterEdit(QStringLiteral("followFilterEdit"));
    m_fromStart = new QCheckBox(tr("Read the lines already there"));
    m_fromStart->setObjectName(QStringLiteral("followFromStart"));
    m_fromStart->setToolTip(tr("Off: start at the end of the log, like tail -F"));
    m_button = new QPushButton(tr("Start following"));
    m_button->setObjectName(QStringLiteral("followButton"));
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (m_following) {
            Q_EMIT stopRequested();
        } else {
            Q_EMIT startRequested(controlsSpec());
        }
    });
    m_figures = new QLabel;
    m_figures->setObjectName(QStringLiteral("followStats"));
    m_figures->setWordWrap(true);
    m_figures->setToolTip(
        tr("Lines read, hits counted, bad lines skipped, rotations (rename) and truncations "
           "(copytruncate) seen"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    auto* form = new QFormLayout(this);
    form->addRow(tr("File"), fileRow);
    form->addRow(QString(), m_more);
    form->addRow(tr("Log key"), m_key);
    form->addRow(tr("Filter"), m_filter);
    form->addRow(m_fromStart);
    form->addRow(m_button);
    form->addRow(m_figures);
}

void FollowControls::chooseFile() {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Follow access logs"),
        m_file->text().isEmpty() ? QStringLiteral("/var/log")
                                 : QFileInfo(m_file->text()).absolutePath(),
        tr("Access logs (*.log *access*);;All files (*)"));
    if (!files.isEmpty()) {
        m_file->setText(files.front());
        m_moreWith = files.front();
        m_moreFiles = files.mid(1);
        showMoreFiles();
    }
}

void FollowControls::showMoreFiles() {
    const bool shown = !m_moreFiles.isEmpty() && m_file->text().trimmed() == m_moreWith;
    m_more->setVisible(shown);
    m_more->setText(moreFilesText(m_moreFiles.size()));
    m_more->setToolTip(m_moreFiles.join(QLatin1Char('\n')));
}

FollowSpec FollowControls::controlsSpec() const {
    FollowSpec spec;
    spec.file = m_file->text().trimmed();
    if (spec.file == m_moreWith) {
        spec.moreFiles = m_moreFiles;
    }
    spec.key = m_key->currentText();
    spec.filter = m_filter->text();
    spec.fromStart = m_fromStart->isChecked();
    return spec;
}

void FollowControls::showFigures(const QString& text) {
    m_figures->setText(text);
}

void FollowControls::fill(const FollowSpec* spec, bool running) {
    if (spec != nullptr) {
        m_file->setText(spec->file);
        m_moreWith = spec->file;
        m_moreFiles = spec->moreFiles;
        showMoreFiles();
        m_fromStart->setChecked(spec->fromStart);
        m_filter->setText(spec->filter);
        if (const int key = m_key->findText(spec->key); key >= 0) {
            m_key->setCurrentIndex(key);
        }
    }
    m_following = running;
    m_button->setText(m_following ? tr("Stop following") : tr("Start following"));
    if (!m_following) {
        m_figures->clear();
    }
}

}  // namespace hitcounter::ui
