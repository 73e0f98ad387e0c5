#include "ui/window/shortcut_list.h"

#include <QAction>
#include <QCoreApplication>
#include <QKeySequence>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

namespace hitcounter::ui {

namespace {

QString description(const QAction& action) {
    QString tip = action.toolTip();
    static const QRegularExpression trailingKeys(QStringLiteral("\\s*\\([^()]*\\)\\s*$"));
    tip.remove(trailingKeys);
    if (!tip.isEmpty() && tip != action.text()) {
        return tip;
    }
    return QString(action.text()).remove(QLatin1Char('&'));
}

}  // namespace

QString shortcutTable(const QList<QAction*>& actions) {
    QString rows;
    QSet<const QAction*> listed;
    for (const QAction* action : actions) {
        if (action == nullptr || action->shortcuts().isEmpty() || listed.contains(action)) {
            continue;
        }
        listed.insert(action);
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts()) {
            keys << QStringLiteral("<b>%1</b>")
                        .arg(key.toString(QKeySequence::NativeText).toHtmlEscaped());
        }
        rows += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                    .arg(keys.join(QObject::tr(" or ")), description(*action).toHtmlEscaped());
    }
    return QStringLiteral("<table cellspacing=6>%1</table>").arg(rows);
}

void showShortcutDialog(QWidget& parent) {
    QMessageBox box(&parent);
    box.setWindowTitle(QCoreApplication::translate("MainWindow", "Keyboard shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(shortcutTable(parent.findChildren<QAction*>()) +
                QCoreApplication::translate(
                    "MainWindow",
                    "<p><b>Mouse</b>: drag to pan (leaves follow), wheel to zoom, double-click to "
                    "reset, right-click a plot to export it, hover a plot for its values, click a "
                    "legend entry to hide or show its series, Ctrl+click items to plot several "
                    "keys, hover the ring for a slot's details; drop a trace or log on the window "
                    "to replay it.</p>"));
    box.exec();
}

}  // namespace hitcounter::ui
