// Window sizes that fit the screen: the first window and a restored geometry never reach past
// the available screen area (1280x720 upward; a 1024x768 screen stays usable).
//
// GUI thread only (plain functions).
//
// Example: firstWindowSize(QRect(0, 0, 1366, 728)) == QSize(1350, 688)   (frame room left)
//          firstWindowSize(QRect(0, 0, 2560, 1400)) == QSize(1600, 1000) (the preferred size)
//          firstWindowSize(QRect(0, 0, 1024, 768), kTeachWindow) == QSize(1008, 728)
#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace hitcounter::ui {

// The preferred first size (the monitor's 1600x1000; the teaching window's kTeachWindow), shrunk
// to `available` less room for the window frame.
inline constexpr QSize kMonitorWindow(1600, 1000);
inline constexpr QSize kTeachWindow(1280, 800);
QSize firstWindowSize(const QRect& available, QSize preferred = kMonitorWindow);
// firstWindowSize() on the primary screen (the preferred size where there is none).
QSize firstWindowSizeOnScreen(QSize preferred);

// Resizes and moves `window` (a top-level widget) so that it lies inside its screen's available
// area; a size that already fits is kept.
void fitIntoScreen(QWidget& window);

}  // namespace hitcounter::ui
