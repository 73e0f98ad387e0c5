// Window sizes that fit the screen: the first window and a restored geometry never reach past
// the available screen area (1280x720 upward; a 1024x768 screen stays usable).
//
// GUI thread only (plain functions).
//
// Example: firstWindowSize(QRect(0, 0, 1366, 728)) == QSize(1350, 688)   (frame room left)
//          firstWindowSize(QRect(0, 0, 2560, 1400)) == QSize(1600, 1000) (the preferred size)
#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace hitcounter::ui {

// The preferred first size, 1600x1000, shrunk to `available` less room for the window frame.
QSize firstWindowSize(const QRect& available);

// Resizes and moves `window` (a top-level widget) so that it lies inside its screen's available
// area; a size that already fits is kept.
void fitIntoScreen(QWidget& window);

}  // namespace hitcounter::ui
