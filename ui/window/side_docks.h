// The main window's left side: the Sources dock in front, with the Alerts and Bad lines docks
// (object names "alertsDock", "badLinesDock") tabbed behind it: movable and floatable, not
// closable, so a window state restored from the settings always finds them.
//
// GUI thread only.
#pragma once

class QMainWindow;
class QWidget;

namespace hitcounter::ui {

class SourcesDock;

void addSideDocks(QMainWindow& window, SourcesDock& sources, QWidget& alerts, QWidget& badLines);

}  // namespace hitcounter::ui
