// layOutTeachView: where the teaching view's parts sit, in one place. Left, the mode tabs
// (Watch | Build your ring | Code) over the lesson panel; right, the panes, stacked: 0 the ring
// (with its chart under it) beside the deque, the vector and the code, 1 the limiters, 2 the
// Build tab, 3 the Code tab. Under them the narration board: the narration (it scrolls; four
// lines high to start with) beside the operation's sub-steps, the answer row under both; last
// the transport bar. Sized for 1280x720 at least.
//
// GUI thread only. The parts are made by the view (their order of making is the focus order);
// this only arranges them, sets the mode tabs' titles and the narration's look, and returns the
// widgets it made that the view sizes and styles later.
#pragma once

class QLabel;
class QScrollArea;
class QStackedWidget;
class QTabBar;
class QWidget;

namespace hitcounter::ui {

// The parts, as widgets: only the mode tabs, the panes and the narration are more to it.
struct TeachParts {
    QWidget* lessons;
    QTabBar* modeTabs;
    QStackedWidget* panes;
    QWidget* ring;
    QWidget* chart;
    QWidget* deque;
    QWidget* vector;
    QWidget* code;
    QWidget* limiters;
    QWidget* build;
    QWidget* codePanel;
    QLabel* narration;
    QWidget* subSteps;
    QWidget* answerRow;
    QWidget* transport;
};

struct TeachLayout {
    QWidget* narrationBox;         // the narration's board (object name "narrationBox")
    QScrollArea* narrationScroll;  // its minimum height is the view's to set
};

// `view` has no layout yet.
TeachLayout layOutTeachView(QWidget& view, const TeachParts& parts);

}  // namespace hitcounter::ui
