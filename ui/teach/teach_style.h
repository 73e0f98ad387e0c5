// The teaching view's drawing colours: one place, so the ring, the queues and the code panel
// tell the same story (green = inside the window, grey = stale, orange = this step, red = reset
// or popped). GUI thread only.
//
// Two palettes with the same meaning per colour: light and dark. colors() picks the one for the
// application's palette (ui/common/theme.cpp's applyTheme() sets it; a window colour darker than
// mid grey means dark), so the painted panels follow the Dark toggle: the widgets look it up when
// they paint, and TeachView restyles its labels when the application's palette changes. Every
// text colour has a contrast of at least 4.5 (WCAG) against the fill it is drawn on in the dark
// palette (the dash in a never-written slot is a mark, fainter on purpose); the light palette is
// the one the view always had.
#pragma once

#include <QColor>
#include <QFont>

class QPalette;

namespace hitcounter::ui::teachstyle {

struct TeachPalette {
    bool dark = false;
    QColor board;         // a panel's background
    QColor boardBorder;   // its outline, grid lines
    QColor ink;           // text
    QColor softInk;       // secondary text, captions, axis labels
    QColor inWindow;      // a slot or entry inside the window
    QColor inWindowSoft;  // the previous fixed window (sliding counter)
    QColor inWindowEdge;  // its outline; "accepted", "count +1"
    QColor inWindowInk;   // text in the window's green (counts, "right")
    QColor stale;         // a slot or entry whose second left the window
    QColor staleInk;      // its outline and text
    QColor empty;         // a slot never written, an empty gauge cell
    QColor emptyEdge;     // its outline
    QColor current;       // this step's slot, line or mark
    QColor currentFill;   // this step's line or never-written slot
    QColor currentInk;    // text in the current orange (a question, the clock)
    QColor removed;       // reset, popped, rejected, wrong
    QColor removedFill;   // the background of an editor line with an error
    QColor codeBlock;     // the function the step runs in the pseudocode
    QColor badgeInk;      // text on a filled green or red badge
    QColor otherSeries;   // the third line of a chart (the deque's bytes)
};

// The palette the view always had (also used for every export: PNG frames and the handout).
const TeachPalette& lightColors();
const TeachPalette& darkColors();
// lightColors() or darkColors(), for `palette`'s window colour.
const TeachPalette& colorsFor(const QPalette& palette);
// colorsFor(the application's palette).
const TeachPalette& colors();

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
