// The keyboard shortcuts dialog's table, generated from the actions themselves, so that a new
// action with a shortcut is listed without anyone editing a hand-written list.
//
// GUI thread only (it reads QActions). shortcutTable(actions) is an HTML table with one row per
// action that has at least one shortcut, in the order given: its keys (every shortcut, as the
// platform writes it, joined by " or ") and what it does (its tool tip without a trailing
// "(keys)" part, else its text without '&'). Actions without a shortcut, and an action given
// twice, are left out or listed once.
//
// showShortcutDialog(parent) shows that table of every action under `parent`, with the mouse's
// gestures after it, in a modal message box (the toolbar's Keyboard shortcuts).
//
// Example: an action "Pause", shortcut Space, tool tip "Freeze the views; counting goes on
// (Space)" gives the row "<b>Space</b> | Freeze the views; counting goes on".
#pragma once

#include <QList>
#include <QString>

class QAction;
class QWidget;

namespace hitcounter::ui {

QString shortcutTable(const QList<QAction*>& actions);
void showShortcutDialog(QWidget& parent);

}  // namespace hitcounter::ui
