// The teaching window of a main window: a TeachView in a window of its own.
//
// GUI thread only.
//   showTeachWindow(owner): shows `owner`'s teaching window, raised and active: one per owner,
//     made on first use (kTeachWindow, shrunk to the screen: 1024x768 too) and kept, with its
//     lesson and step, when closed.
#pragma once

class QWidget;

namespace hitcounter::ui {

class TeachView;

TeachView* showTeachWindow(QWidget& owner);

}  // namespace hitcounter::ui
