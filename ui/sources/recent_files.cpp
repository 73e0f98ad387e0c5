#include "ui/sources/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace hitcounter::ui {

namespace {
const QString kRecentFilesKey = QStringLiteral("recent/files");
}

RecentFiles::RecentFiles(QString iniFile, QObject* parent)
    : QObject(parent),
      m_settings(iniFile.isEmpty() ? std::make_unique<QSettings>()
                                   : std::make_unique<QSettings>(iniFile, QSettings::IniFormat)) {}

RecentFiles::~RecentFiles() = default;

QStringList RecentFiles::files() const {
    QStringList absolute;  // a relative entry names a different file in each directory
    for (const QString& file : m_settings->value(kRecentFilesKey).toStringList()) {
        if (QDir::isAbsolutePath(file)) {
            absolute << file;
        }
    }
    return absolute;
}

void RecentFiles::store(const QStringList& files) {
    m_settings->setValue(kRecentFilesKey, files);
    m_settings->sync();
}

void RecentFiles::add(const QString& file) {
    const QString path = QFileInfo(file).absoluteFilePath();
    QStringList list = files();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMax) {
        list.removeLast();
    }
    store(list);
}

void RecentFiles::clear() {
    store({});
}

QStringList RecentFiles::pruneMissing() {
    QStringList kept;
    QStringList gone;
    for (const QString& f : files()) {
        (QFileInfo::exists(f) ? kept : gone) << f;
    }
    if (!gone.isEmpty()) {
        store(kept);
        Q_EMIT missing(gone);
    }
    return gone;
}

QMenu* RecentFiles::menu(QWidget* parent) {
    auto* menu = new QMenu(tr("Open recent"), parent);
    menu->setObjectName(QStringLiteral("recentMenu"));
    connect(menu, &QMenu::aboutToShow, this, [this, menu] { fillMenu(*menu); });
    fillMenu(*menu);
    return menu;
}

void RecentFiles::fillMenu(QMenu& menu) {
    pruneMissing();
    menu.clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        const QString& file = list[i];
        // &1 .. &9, then 1&0: the keyboard reaches each entry.
        const QString accel = i < 9 ? QStringLiteral("&%1").arg(i + 1) : QStringLiteral("1&0");
        QAction* action =
            menu.addAction(QStringLiteral("%1  %2").arg(accel, QFileInfo(file).fileName()));
        action->setToolTip(QDir::toNativeSeparators(file));
        action->setStatusTip(QDir::toNativeSeparators(file));
        connect(action, &QAction::triggered, this, [this, file] {
            if (!QFileInfo::exists(file)) {
                pruneMissing();
                return;
            }
            add(file);
            Q_EMIT openRequested(file);
        });
    }
    if (list.isEmpty()) {
        menu.addAction(tr("(no recent files)"))->setEnabled(false);
    } else {
        menu.addSeparator();
        connect(menu.addAction(tr("Clear the list")), &QAction::triggered, this,
                &RecentFiles::clear);
    }
    menu.setToolTipsVisible(true);
}

}  // namespace hitcounter::ui
