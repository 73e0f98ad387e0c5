// RecentFiles: the traces and logs opened last, newest first, kept in QSettings
// ("recent/files", at most kMax), and a menu that opens them.
//
// GUI thread only. add() puts a file first (once), as an absolute path; files() skips an
// entry stored relative (it would name another file when started from another directory). A file
// that no longer exists is removed when the menu is shown or the file is chosen, with a message
// (the `missing` signal) naming it. The settings used are QSettings() (the application's), or an
// INI file given to the constructor (tests).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

class QMenu;
class QSettings;
class QWidget;

namespace hitcounter::ui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 10;

    // `iniFile` empty: the application's QSettings.
    explicit RecentFiles(QString iniFile = {}, QObject* parent = nullptr);
    ~RecentFiles() override;

    QStringList files() const;
    void add(const QString& file);
    void clear();
    // Removes files that no longer exist; returns them.
    QStringList pruneMissing();

    // "Open recent" menu, rebuilt each time it is shown; choosing an entry emits openRequested.
    QMenu* menu(QWidget* parent = nullptr);

Q_SIGNALS:
    void openRequested(const QString& file);
    // Files removed from the list because they no longer exist.
    void missing(const QStringList& files);

private:
    void store(const QStringList& files);
    void fillMenu(QMenu& menu);

    std::unique_ptr<QSettings> m_settings;
};

}  // namespace hitcounter::ui
