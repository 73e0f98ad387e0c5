#include "ui/window/main_tool_bar.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>

#include "ui/monitor/live_plot.h"
#include "ui/sources/recent_files.h"

namespace hitcounter::ui {

namespace {
void selectData(QComboBox& box, int value) {
    const int index = box.findData(value);
    if (index >= 0) {
        box.setCurrentIndex(index);
    }
}
}  // namespace

MainToolBar::MainToolBar(LivePlot& live, RecentFiles& recent, QWidget* parent)
    : QToolBar(tr("Main"), parent) {
    setObjectName(QStringLiteral("mainToolBar"));
    setMovable(false);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    addPlotActions(live);
    addSeparator();
    addWindowChoices();
    addSeparator();
    addWidget(live.createStatusSplitBox());
    addSeparator();
    addFileActions(recent);
    addWindowActions();
    styleExtensionButton();
}

void MainToolBar::addPlotActions(LivePlot& live) {
    m_pause = addAction(tr("Pause"));
    m_pause->setObjectName(QStringLiteral("pauseAction"));
    m_pause->setCheckable(true);
    m_pause->setShortcut(Qt::Key_Space);
    m_pause->setToolTip(tr("Freeze the views; counting goes on (Space)"));
    connect(m_pause, &QAction::toggled, this, &MainToolBar::pauseToggled);
    // Wide enough for "Resume": the toolbar does not shift when the text changes.
    if (auto* button = qobject_cast<QToolButton*>(widgetForAction(m_pause))) {
        m_pause->setText(tr("Resume"));
        button->setMinimumWidth(button->sizeHint().width());
        m_pause->setText(tr("Pause"));
    }

    QAction* follow = addAction(tr("Follow live"));
    follow->setCheckable(true);
    follow->setChecked(true);
    follow->setShortcut(Qt::Key_F);
    follow->setToolTip(
        tr("Scroll with the newest data; drag the plot to leave, zoom keeps it (F)"));
    connect(follow, &QAction::triggered, this, [&live, follow] {
        live.setFollowing(true);
        follow->setChecked(true);
    });
    connect(&live, &LivePlot::followingChanged, follow, &QAction::setChecked);

    QAction* zoomIn = addAction(tr("Zoom +"));
    zoomIn->setShortcuts({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)});
    zoomIn->setToolTip(tr("Zoom into the time axis (+)"));
    connect(zoomIn, &QAction::triggered, this, [&live] { live.zoomTime(0.7); });
    QAction* zoomOut = addAction(tr("Zoom −"));
    zoomOut->setShortcut(Qt::Key_Minus);
    zoomOut->setToolTip(tr("Zoom out of the time axis (-)"));
    connect(zoomOut, &QAction::triggered, this, [&live] { live.zoomTime(1.0 / 0.7); });
}

void MainToolBar::addWindowChoices() {
    addWidget(new QLabel(tr(" Window W: ")));
    m_windowBox = new QComboBox;
    m_windowBox->setObjectName(QStringLiteral("windowBox"));
    for (int s : kWindowChoices) {
        m_windowBox->addItem(s < 3600 ? tr("%1 min").arg(s / 60) : tr("1 h"), s);
    }
    selectData(*m_windowBox, 300);
    m_windowBox->setToolTip(
        tr("Window length W (the ring has W one-second slots). "
           "Changing it keeps the history: a live source's counters are refilled from the "
           "last hour's per-second counts, a replay is re-run to where it stands."));
    connect(m_windowBox, &QComboBox::activated, this,
            [this](int i) { Q_EMIT windowChosen(m_windowBox->itemData(i).toInt()); });
    addWidget(m_windowBox);

    addWidget(new QLabel(tr("  Bucket: ")));
    m_bucketBox = new QComboBox;
    m_bucketBox->setObjectName(QStringLiteral("bucketBox"));
    for (int s : kBucketChoices) {
        m_bucketBox->addItem(tr("%1 s").arg(s), s);
    }
    m_bucketBox->setToolTip(
        tr("Bucket width of the ring drawn in the histogram: 1 s is the "
           "exact ring; wider buckets show the coarse ring's structure."));
    connect(m_bucketBox, &QComboBox::activated, this,
            [this](int i) { Q_EMIT bucketChosen(m_bucketBox->itemData(i).toInt()); });
    addWidget(m_bucketBox);
}

void MainToolBar::addFileActions(RecentFiles& recent) {
    // Short labels (tooltips say the rest): the whole toolbar fits a 1024 px wide window.
    QAction* open = addAction(tr("Open…"));
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Replay a trace CSV or a web server access log, plain or .gz (Ctrl+O)"));
    connect(open, &QAction::triggered, this, &MainToolBar::openRequested);
    auto* recentButton = new QToolButton;
    recentButton->setObjectName(QStringLiteral("recentButton"));
    recentButton->setText(tr("Recent"));
    recentButton->setToolTip(tr("Open one of the last %1 traces or logs").arg(RecentFiles::kMax));
    recentButton->setPopupMode(QToolButton::InstantPopup);
    recentButton->setMenu(recent.menu(recentButton));
    addWidget(recentButton);

    QAction* snapshot = addAction(tr("Snapshot"));
    snapshot->setShortcut(QKeySequence::Save);
    snapshot->setToolTip(
        tr("Save a PNG of the window, a CSV of the current window and the "
           "settings used (Ctrl+S)"));
    connect(snapshot, &QAction::triggered, this, &MainToolBar::snapshotRequested);
}

void MainToolBar::addWindowActions() {
    m_dark = addAction(tr("Dark"));
    m_dark->setCheckable(true);
    m_dark->setToolTip(tr("Switch between the light and the dark theme"));
    connect(m_dark, &QAction::toggled, this, &MainToolBar::darkToggled);

    QAction* teach = addAction(tr("Teach"));
    teach->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    teach->setToolTip(tr("Open the teaching mode: the ring buffer step by step (Ctrl+T)"));
    connect(teach, &QAction::triggered, this, &MainToolBar::teachRequested);

    QAction* help = addAction(tr("?"));
    help->setObjectName(QStringLiteral("shortcutsAction"));
    help->setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::Key_F1)});
    help->setToolTip(tr("Show every keyboard shortcut (? or F1)"));
    connect(help, &QAction::triggered, this, &MainToolBar::shortcutsRequested);
}

void MainToolBar::styleExtensionButton() {
    // In a narrower window the actions that do not fit are behind the extension button (»),
    // which expands the toolbar. Qt draws it as a 12 px dark icon that vanishes in the dark
    // theme: it shows the palette's text instead.
    if (auto* more = findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"))) {
        more->setToolButtonStyle(Qt::ToolButtonTextOnly);
        more->setText(QStringLiteral("»"));
        more->setToolTip(tr("More: the actions that do not fit"));
    }
}

void MainToolBar::showPaused(bool paused) {
    const QSignalBlocker block(m_pause);
    m_pause->setChecked(paused);
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
}

bool MainToolBar::pausedShown() const {
    return m_pause->isChecked();
}

void MainToolBar::showWindowSeconds(int seconds) {
    selectData(*m_windowBox, seconds);
}

void MainToolBar::showBucketSeconds(int seconds) {
    selectData(*m_bucketBox, seconds);
}

void MainToolBar::showDark(bool dark) {
    const QSignalBlocker block(m_dark);
    m_dark->setChecked(dark);
}

}  // namespace hitcounter::ui
