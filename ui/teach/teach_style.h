// The teaching view's drawing colours: one place, so the ring, the queues and the code panel
// tell the same story (green = inside the window, grey = stale, orange = this step, red = reset
// or popped). GUI thread only. The painted panels draw their own light "board" background, so
// they stay readable under the application's light and dark themes.
#pragma once

#include <QColor>
#include <QFont>

namespace hitcounter::ui::teachstyle {

inline QColor board() {
    return QColor(0xfb, 0xfa, 0xf6);
}
inline QColor boardBorder() {
    return QColor(0xdd, 0xd8, 0xcc);
}
inline QColor ink() {
    return QColor(0x26, 0x2a, 0x33);
}
inline QColor softInk() {
    return QColor(0x6b, 0x70, 0x7a);
}
inline QColor inWindow() {
    return QColor(0xc9, 0xeb, 0xd6);
}
inline QColor inWindowEdge() {
    return QColor(0x2e, 0x9a, 0x5c);
}
inline QColor stale() {
    return QColor(0xe4, 0xe2, 0xdd);
}
inline QColor staleInk() {
    return QColor(0xa3, 0xa0, 0x99);
}
inline QColor empty() {
    return QColor(0xff, 0xff, 0xff);
}
inline QColor emptyEdge() {
    return QColor(0xcf, 0xcb, 0xc2);
}
inline QColor current() {
    return QColor(0xf0, 0x8a, 0x24);
}
inline QColor currentFill() {
    return QColor(0xfd, 0xe6, 0xc8);
}
inline QColor removed() {
    return QColor(0xd6, 0x3b, 0x3b);
}
inline QColor codeBlock() {
    return QColor(0xfd, 0xf3, 0xd8);
}

inline QFont font(qreal pointSize, bool bold = false) {
    QFont f;
    f.setPointSizeF(pointSize);
    f.setBold(bold);
    return f;
}

inline QFont mono(qreal pointSize, bool bold = false) {
    QFont f(QStringLiteral("DejaVu Sans Mono"));
    f.setStyleHint(QFont::Monospace);
    f.setPointSizeF(pointSize);
    f.setBold(bold);
    return f;
}

}  // namespace hitcounter::ui::teachstyle
