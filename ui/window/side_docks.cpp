#include "ui/window/side_docks.h"

#include <QDockWidget>
#include <QMainWindow>
#include <tuple>

#include "ui/sources/sources_dock.h"

namespace hitcounter::ui {

void addSideDocks(QMainWindow& window, SourcesDock& sources, QWidget& alerts, QWidget& badLines) {
    window.addDockWidget(Qt::LeftDockWidgetArea, &sources);
    QDockWidget* behind = &sources;
    for (const auto& [title, name, widget] :
         {std::tuple{QMainWindow::tr("Alerts"), "alertsDock", &alerts},
          std::tuple{QMainWindow::tr("Bad lines"), "badLinesDock", &badLines}}) {
        auto* dock = new QDockWidget(title);
        dock->setObjectName(QLatin1String(name));
        dock->setWidget(widget);
        dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
        window.addDockWidget(Qt::LeftDockWidgetArea, dock);
        window.tabifyDockWidget(behind, dock);
        behind = dock;
    }
    sources.raise();
}

}  // namespace hitcounter::ui
