#include "ui/sources/file_opener.h"

#include <QFileDialog>
#include <QStandardPaths>

#include "ui/sources/file_drop.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/source_session.h"

namespace hitcounter::ui {

FileOpener::FileOpener(QWidget& window, const SourceSession& session)
    : QObject(&window), m_window(window), m_session(session), m_recent(new RecentFiles({}, this)) {
    connect(m_recent, &RecentFiles::openRequested, this,
            [this](const QString& file) { Q_EMIT openRequested({file}); });
    connect(m_recent, &RecentFiles::missing, this, [this](const QStringList& files) {
        Q_EMIT statusMessage(
            tr("Removed from the recent files (no longer there): %1").arg(files.join(", ")), 10000);
    });
    new FileDrop(window, [this](const QStringList& files) { Q_EMIT openRequested(files); });
}

void FileOpener::ask() {
    const QString dir = m_session.traceDirectory(
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    // Several files (a rotation set, several servers' logs) are replayed as one.
    const QStringList files = QFileDialog::getOpenFileNames(
        &m_window, tr("Open traces or access logs"), dir,
        tr("Recorded hits (*.csv *.log *.gz *.json *.jsonl *access*);;Trace CSV (*.csv);;"
           "All files (*)"));
    if (!files.isEmpty()) {
        Q_EMIT openRequested(files);
    }
}

}  // namespace hitcounter::ui
