#include "ui/teach/teach_layout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabBar>
#include <QVBoxLayout>

#include "ui/teach/teach_style.h"
#include "ui/teach/teach_view.h"

namespace hitcounter::ui {

namespace ts = teachstyle;

TeachLayout layOutTeachView(QWidget& view, const TeachParts& parts) {
    auto* root = new QVBoxLayout(&view);
    root->setContentsMargins(8, 8, 8, 6);
    root->setSpacing(6);

    auto* middle = new QHBoxLayout;
    middle->setSpacing(6);
    parts.lessons->setFixedWidth(290);
    // Watch the ring, or build one (ring lessons): tabs over the lesson panel, so the panes
    // keep their height at 1280x720.
    auto* leftColumn = new QVBoxLayout;
    leftColumn->setSpacing(2);
    leftColumn->addWidget(parts.modeTabs);
    leftColumn->addWidget(parts.lessons, 1);
    middle->addLayout(leftColumn);
    auto* ringPane = new QWidget(parts.panes);
    auto* ringLayout = new QHBoxLayout(ringPane);
    ringLayout->setContentsMargins(0, 0, 0, 0);
    ringLayout->setSpacing(6);
    auto* ringColumn = new QVBoxLayout;
    ringColumn->setSpacing(6);
    ringColumn->addWidget(parts.ring, 4);
    ringColumn->addWidget(parts.chart, 1);
    parts.chart->hide();
    ringLayout->addLayout(ringColumn, 5);
    auto* right = new QVBoxLayout;
    right->setSpacing(4);
    right->addWidget(parts.deque, 2);
    right->addWidget(parts.vector, 3);
    right->addWidget(parts.code, 0);
    ringLayout->addLayout(right, 4);
    parts.panes->addWidget(ringPane);
    parts.panes->addWidget(parts.limiters);
    parts.panes->addWidget(parts.build);
    parts.panes->addWidget(parts.codePanel);
    parts.modeTabs->addTab(TeachView::tr("Watch"));
    parts.modeTabs->addTab(TeachView::tr("Build your ring"));
    parts.modeTabs->addTab(TeachView::tr("Code"));
    parts.modeTabs->setTabToolTip(0,
                                  TeachView::tr("The ring, the deque and the vector step by step"));
    parts.modeTabs->setTabToolTip(
        1, TeachView::tr(
               "Build the ring's logic from choices and run it against the reference counter"));
    parts.modeTabs->setTabToolTip(
        2, TeachView::tr(
               "Write your own counter in JavaScript and check it against the reference counter"));
    parts.modeTabs->setDrawBase(false);
    parts.modeTabs->setExpanding(true);
    middle->addWidget(parts.panes, 1);
    root->addLayout(middle, 1);

    auto* narrationBox = new QWidget(&view);
    narrationBox->setObjectName(QStringLiteral("narrationBox"));
    auto* narrationLayout = new QVBoxLayout(narrationBox);
    narrationLayout->setContentsMargins(14, 8, 14, 8);
    parts.narration->setWordWrap(true);
    parts.narration->setTextFormat(Qt::RichText);
    parts.narration->setFont(ts::font(12.5));
    parts.narration->setMinimumHeight(QFontMetrics(parts.narration->font()).lineSpacing() * 3);
    parts.narration->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The operation's lines beside its narration: reading one, the eye finds the other.
    auto* narrationRow = new QHBoxLayout;
    narrationRow->setSpacing(12);
    // A long narration scrolls instead of taking the panels' room at 1280x720.
    auto* narrationScroll = new QScrollArea(narrationBox);
    narrationScroll->setObjectName(QStringLiteral("narrationScroll"));
    narrationScroll->setWidget(parts.narration);
    narrationScroll->setWidgetResizable(true);
    narrationScroll->setFrameShape(QFrame::NoFrame);
    narrationScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    narrationScroll->setStyleSheet(
        QStringLiteral("QScrollArea, QScrollArea > QWidget > QWidget "
                       "{ background: transparent; }"));
    // Four lines, the rest scrolls: the panels above keep their room at any window size.
    narrationScroll->setMinimumHeight(QFontMetrics(parts.narration->font()).lineSpacing() * 4 + 26);
    narrationScroll->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    narrationRow->addWidget(narrationScroll, 2);
    narrationRow->addWidget(parts.subSteps, 1);
    narrationLayout->addLayout(narrationRow);

    narrationLayout->addWidget(parts.answerRow);
    root->addWidget(narrationBox);
    root->addWidget(parts.transport);
    return {narrationBox, narrationScroll};
}

}  // namespace hitcounter::ui
