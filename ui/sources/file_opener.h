// FileOpener: every way the main window opens a trace or access log: File > Open (ask(): a
// dialog in the running replay's folder, else Documents; several files chosen are replayed as
// one), the recent files menu and files dropped on the window. Each ends in
// openRequested(files); recent files no longer there are named in statusMessage.
//
// GUI thread only. Owned by the window it opens files for.
#pragma once

#include <QObject>
#include <QStringList>

class QWidget;

namespace hitcounter::ui {

class RecentFiles;
class SourceSession;

class FileOpener : public QObject {
    Q_OBJECT
public:
    FileOpener(QWidget& window, const SourceSession& session);

    RecentFiles* recent() const { return m_recent; }
    // The File > Open dialog; openRequested unless it is cancelled.
    void ask();

Q_SIGNALS:
    void openRequested(const QStringList& files);
    void statusMessage(const QString& message, int milliseconds);

private:
    QWidget& m_window;
    const SourceSession& m_session;
    RecentFiles* m_recent;
};

}  // namespace hitcounter::ui
