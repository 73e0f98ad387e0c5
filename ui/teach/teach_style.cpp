#include "ui/teach/teach_style.h"

#include <QGuiApplication>
#include <QPalette>

namespace hitcounter::ui::teachstyle {

const TeachPalette& lightColors() {
    static const TeachPalette palette = [] {
        TeachPalette p;
        p.dark = false;
        p.board = QColor(0xfb, 0xfa, 0xf6);
        p.boardBorder = QColor(0xdd, 0xd8, 0xcc);
        p.ink = QColor(0x26, 0x2a, 0x33);
        p.softInk = QColor(0x6b, 0x70, 0x7a);
        p.inWindow = QColor(0xc9, 0xeb, 0xd6);
        p.inWindowSoft = p.inWindow.lighter(108);
        p.inWindowEdge = QColor(0x2e, 0x9a, 0x5c);
        p.inWindowInk = p.inWindowEdge.darker(130);
        p.stale = QColor(0xe4, 0xe2, 0xdd);
        p.staleInk = QColor(0xa3, 0xa0, 0x99);
        p.empty = QColor(0xff, 0xff, 0xff);
        p.emptyEdge = QColor(0xcf, 0xcb, 0xc2);
        p.current = QColor(0xf0, 0x8a, 0x24);
        p.currentFill = QColor(0xfd, 0xe6, 0xc8);
        p.currentInk = p.current.darker(140);
        p.removed = QColor(0xd6, 0x3b, 0x3b);
        p.removedFill = QColor(0xfb, 0xe3, 0xe1);
        p.codeBlock = QColor(0xfd, 0xf3, 0xd8);
        p.badgeInk = QColor(0xff, 0xff, 0xff);
        p.otherSeries = QColor(0x3b, 0x6f, 0xd6);
        return p;
    }();
    return palette;
}

// The boards are the plots' dark background (ui/common/theme.cpp), a step darker than the window;
// the fills are the light palette's hues, dimmed, and the inks brightened until they reach a
// contrast of 4.5 on the fill they are drawn on (tst_teach_theme measures every pair).
const TeachPalette& darkColors() {
    static const TeachPalette palette = [] {
        TeachPalette p;
        p.dark = true;
        p.board = QColor(0x1e, 0x1f, 0x22);
        p.boardBorder = QColor(0x3c, 0x40, 0x43);
        p.ink = QColor(0xe8, 0xea, 0xed);
        p.softInk = QColor(0xa4, 0xa9, 0xb0);
        p.inWindow = QColor(0x1d, 0x4a, 0x32);
        p.inWindowSoft = QColor(0x17, 0x38, 0x26);
        p.inWindowEdge = QColor(0x4c, 0xc2, 0x83);
        p.inWindowInk = QColor(0x8f, 0xe0, 0xb0);
        p.stale = QColor(0x37, 0x38, 0x3c);
        p.staleInk = QColor(0xb0, 0xb3, 0xb8);
        p.empty = QColor(0x14, 0x15, 0x17);
        p.emptyEdge = QColor(0x6b, 0x70, 0x75);
        p.current = QColor(0xff, 0x9d, 0x3d);
        p.currentFill = QColor(0x4d, 0x32, 0x10);
        p.currentInk = QColor(0xff, 0xb4, 0x5a);
        p.removed = QColor(0xff, 0x8f, 0x8f);
        p.removedFill = QColor(0x4a, 0x20, 0x20);
        p.codeBlock = QColor(0x3a, 0x33, 0x1c);
        p.badgeInk = QColor(0x10, 0x11, 0x14);
        p.otherSeries = QColor(0x6f, 0x9c, 0xff);
        return p;
    }();
    return palette;
}

const TeachPalette& colorsFor(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128 ? darkColors() : lightColors();
}

const TeachPalette& colors() {
    return colorsFor(QGuiApplication::palette());
}

}  // namespace hitcounter::ui::teachstyle
