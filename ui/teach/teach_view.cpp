#include "ui/teach/teach_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include "core/teach/lessons.h"
#include "core/teach/limiter_questions.h"
#include "core/teach/teach_file.h"
#include "ui/teach/build_panel.h"
#include "ui/teach/code_panel.h"
#include "ui/teach/code_view.h"
#include "ui/teach/handout.h"
#include "ui/teach/lesson_panel.h"
#include "ui/teach/limiter_view.h"
#include "ui/teach/ring_view.h"
#include "ui/teach/sequence_view.h"
#include "ui/teach/step_chart.h"
#include "ui/teach/teach_style.h"
#include "ui/teach/transport_bar.h"

namespace hitcounter::ui {

namespace ts = teachstyle;
using teach::Frame;
using teach::Operation;

namespace {

QString operationText(const Operation& op, bool requests) {
    if (requests) {
        if (op.kind == Operation::Kind::GetHits) {
            return QStringLiteral("getHits(%1): no request").arg(op.second);
        }
        return op.repeat > 1 ? QStringLiteral("%1 requests at %2").arg(op.repeat).arg(op.second)
                             : QStringLiteral("request at %1").arg(op.second);
    }
    if (op.kind == Operation::Kind::GetHits) {
        return QStringLiteral("getHits(%1)").arg(op.second);
    }
    return op.repeat > 1 ? QStringLiteral("hit(%1) ×%2").arg(op.second).arg(op.repeat)
                         : QStringLiteral("hit(%1)").arg(op.second);
}

QString boardStyle() {
    return QStringLiteral("background: %1; border: 1px solid %2; border-radius: 10px;")
        .arg(ts::colors().board.name(), ts::colors().boardBorder.name());
}

// Exports are for slides and paper: under a dark application palette they are drawn in the
// light one. For the export's duration the application gets the light palette and no style
// sheet (the dark theme's one styles the check boxes), which restyles the view; both are put
// back after it. The export runs without returning to the event loop, so the screen never shows
// the light look. Nested scopes (every step's frame in "Save all steps") do nothing.
class LightForExport {
public:
    explicit LightForExport(QWidget& view) : m_view(view), m_swapped(ts::colors().dark) {
        if (!m_swapped) {
            return;
        }
        m_palette = QApplication::palette();
        m_styleSheet = qApp->styleSheet();
        qApp->setStyleSheet(QString());
        QPalette light = QApplication::style()->standardPalette();
        // ui/common/theme.cpp's lightTheme().accent (hitcounter_ui links this library, not the
        // reverse).
        light.setColor(QPalette::Highlight, QColor(0x1a, 0x73, 0xe8));
        QApplication::setPalette(light);
        tellView();
    }
    ~LightForExport() {
        if (m_swapped) {
            QApplication::setPalette(m_palette);
            qApp->setStyleSheet(m_styleSheet);
            tellView();
        }
    }
    LightForExport(const LightForExport&) = delete;
    LightForExport& operator=(const LightForExport&) = delete;

private:
    // A top-level window hears of the application's palette from a posted event: the view
    // (its own background) needs it now.
    void tellView() {
        QEvent changed(QEvent::ApplicationPaletteChange);
        QCoreApplication::sendEvent(&m_view, &changed);
    }

    QWidget& m_view;
    bool m_swapped;
    QPalette m_palette;
    QString m_styleSheet;
};

}  // namespace

TeachView::TeachView(QWidget* parent)
    : QWidget(parent),
      m_lessons(new LessonPanel(this)),
      m_ring(new RingView(this)),
      m_chart(new StepChart(this)),
      m_deque(new SequenceView(SequenceView::Kind::Deque, this)),
      m_vector(new SequenceView(SequenceView::Kind::Vector, this)),
      m_code(new CodeView(this)),
      m_narration(new QLabel(this)),
      m_predictRow(new QWidget(this)),
      m_guess(new QSpinBox(m_predictRow)),
      m_laneChoices(new QWidget(m_predictRow)),
      m_panes(new QStackedWidget(this)),
      m_limiterView(new LimiterView(this)),
      m_build(new BuildPanel(this)),
      m_codePanel(new CodePanel(this)),
      m_modeTabs(new QTabBar(this)),
      m_transport(new TransportBar(this)),
      m_player(new QTimer(this)),
      m_subBox(new QWidget(this)),
      m_subToggle(new QPushButton(m_subBox)),
      m_subList(new QListWidget(m_subBox)),
      m_scoreLabel(new QLabel(m_predictRow)) {
    setWindowTitle(tr("hitcounter: teaching mode"));
    // The Code tab draws a RingView and StepCharts of its own: these are the Watch tab's.
    m_ring->setObjectName(QStringLiteral("watchRing"));
    m_chart->setObjectName(QStringLiteral("watchChart"));
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(8, 8, 8, 6);
    root->setSpacing(6);

    auto* middle = new QHBoxLayout;
    middle->setSpacing(6);
    m_lessons->setFixedWidth(290);
    // Watch the ring, or build one (ring lessons): tabs over the lesson panel, so the panes
    // keep their height at 1280x720.
    auto* leftColumn = new QVBoxLayout;
    leftColumn->setSpacing(2);
    leftColumn->addWidget(m_modeTabs);
    leftColumn->addWidget(m_lessons, 1);
    middle->addLayout(leftColumn);
    auto* ringPane = new QWidget(m_panes);
    auto* ringLayout = new QHBoxLayout(ringPane);
    ringLayout->setContentsMargins(0, 0, 0, 0);
    ringLayout->setSpacing(6);
    auto* ringColumn = new QVBoxLayout;
    ringColumn->setSpacing(6);
    ringColumn->addWidget(m_ring, 4);
    ringColumn->addWidget(m_chart, 1);
    m_chart->hide();
    ringLayout->addLayout(ringColumn, 5);
    auto* right = new QVBoxLayout;
    right->setSpacing(4);
    right->addWidget(m_deque, 2);
    right->addWidget(m_vector, 3);
    right->addWidget(m_code, 0);
    auto* subLayout = new QVBoxLayout(m_subBox);
    subLayout->setContentsMargins(0, 0, 0, 0);
    subLayout->setSpacing(2);
    m_subToggle->setCheckable(true);
    m_subToggle->setChecked(true);
    m_subToggle->setFlat(true);
    m_subToggle->setStyleSheet(QStringLiteral("text-align: left; font-weight: bold;"));
    m_subToggle->setToolTip(
        tr("Show or hide the lines this operation runs (Down/Up step through "
           "them)"));
    m_subList->setFont(ts::mono(9));
    // Two lines at least (1280x720 must fit), six at most: the narration box stays the height
    // of its text.
    m_subList->setMinimumHeight(QFontMetrics(m_subList->font()).lineSpacing() * 2 + 6);
    m_subList->setMaximumHeight(QFontMetrics(m_subList->font()).lineSpacing() * 6 + 6);
    // Takes the height the narration needs rather than asking for more.
    m_subList->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    subLayout->addWidget(m_subToggle);
    subLayout->addWidget(m_subList, 1);
    connect(m_subToggle, &QPushButton::toggled, this, [this](bool open) {
        m_subList->setVisible(open);
        updateTransport();
    });
    connect(m_subList, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row != m_subStep) {
            m_subStep = row;
            presentSubStep();
        }
    });
    ringLayout->addLayout(right, 4);
    m_panes->addWidget(ringPane);
    m_panes->addWidget(m_limiterView);
    m_panes->addWidget(m_build);
    m_panes->addWidget(m_codePanel);
    m_modeTabs->addTab(tr("Watch"));
    m_modeTabs->addTab(tr("Build your ring"));
    m_modeTabs->addTab(tr("Code"));
    m_modeTabs->setTabToolTip(0, tr("The ring, the deque and the vector step by step"));
    m_modeTabs->setTabToolTip(
        1, tr("Build the ring's logic from choices and run it against the reference counter"));
    m_modeTabs->setTabToolTip(
        2, tr("Write your own counter in JavaScript and check it against the reference counter"));
    m_modeTabs->setDrawBase(false);
    m_modeTabs->setExpanding(true);
    middle->addWidget(m_panes, 1);
    connect(m_modeTabs, &QTabBar::currentChanged, this, &TeachView::showTab);
    // The narration under the Build tab follows the differing step of the lesson.
    connect(m_build, &BuildPanel::lessonDiffersAt, this, &TeachView::showStep);
    root->addLayout(middle, 1);

    auto* narrationBox = new QWidget(this);
    narrationBox->setObjectName(QStringLiteral("narrationBox"));
    m_narrationBox = narrationBox;
    auto* narrationLayout = new QVBoxLayout(narrationBox);
    narrationLayout->setContentsMargins(14, 8, 14, 8);
    m_narration->setWordWrap(true);
    m_narration->setTextFormat(Qt::RichText);
    m_narration->setFont(ts::font(12.5));
    m_narration->setMinimumHeight(QFontMetrics(m_narration->font()).lineSpacing() * 3);
    m_narration->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The operation's lines beside its narration: reading one, the eye finds the other.
    auto* narrationRow = new QHBoxLayout;
    narrationRow->setSpacing(12);
    // A long narration scrolls instead of taking the panels' room at 1280x720.
    auto* narrationScroll = new QScrollArea(narrationBox);
    narrationScroll->setObjectName(QStringLiteral("narrationScroll"));
    narrationScroll->setWidget(m_narration);
    narrationScroll->setWidgetResizable(true);
    narrationScroll->setFrameShape(QFrame::NoFrame);
    narrationScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    narrationScroll->setStyleSheet(
        QStringLiteral("QScrollArea, QScrollArea > QWidget > QWidget "
                       "{ background: transparent; }"));
    // Four lines, the rest scrolls: the panels above keep their room at any window size.
    narrationScroll->setMinimumHeight(QFontMetrics(m_narration->font()).lineSpacing() * 4 + 26);
    m_narrationScroll = narrationScroll;
    narrationScroll->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    narrationRow->addWidget(narrationScroll, 2);
    narrationRow->addWidget(m_subBox, 1);
    narrationLayout->addLayout(narrationRow);

    auto* predictLayout = new QHBoxLayout(m_predictRow);
    predictLayout->setContentsMargins(0, 0, 0, 0);
    // The question opens the narration (present()), which wraps and scrolls, so a long one
    // never pushes the answer box off the window at 1280x720 (issue 24); the row keeps the
    // score, the answer box and the buttons on one line.
    m_guess->setObjectName(QStringLiteral("guess"));
    m_guess->setRange(0, 1'000'000);
    m_guess->setFont(ts::font(12));
    m_guess->setMinimumWidth(90);
    auto* check = new QPushButton(tr("Check my answer"), m_predictRow);
    check->setDefault(true);
    auto* reveal = new QPushButton(tr("Just show me"), m_predictRow);
    m_scoreLabel->setFont(ts::font(11, true));
    predictLayout->addWidget(m_scoreLabel, 1);
    predictLayout->addWidget(m_guess);
    // A rate-limit question: one box per limiter, ticked for "accepts" (issue 24).
    auto* laneLayout = new QHBoxLayout(m_laneChoices);
    laneLayout->setContentsMargins(0, 0, 0, 0);
    m_laneChoices->hide();
    predictLayout->addWidget(m_laneChoices);
    predictLayout->addWidget(check);
    predictLayout->addWidget(reveal);
    // Gives its room back while hidden: at 1280x720 the panels above need it.
    QSizePolicy keep = m_predictRow->sizePolicy();
    keep.setRetainSizeWhenHidden(false);
    m_predictRow->setSizePolicy(keep);
    m_predictRow->hide();
    narrationLayout->addWidget(m_predictRow);
    root->addWidget(narrationBox);
    root->addWidget(m_transport);

    connect(m_lessons, &LessonPanel::runRequested, this,
            [this](const QString& text, std::chrono::seconds window) { run(text, window); });
    connect(m_lessons->predictSwitch(), &QCheckBox::toggled, this, &TeachView::setPredictMode);
    connect(m_lessons, &LessonPanel::saveFileRequested, this, &TeachView::chooseLessonFileToSave);
    connect(m_lessons, &LessonPanel::openFileRequested, this, &TeachView::chooseLessonFileToOpen);
    connect(m_lessons, &LessonPanel::practiceRequested, this,
            [this](std::uint64_t seed, teach::PracticeLevel level) { startPractice(seed, level); });
    connect(check, &QPushButton::clicked, this, [this] {
        if (m_limits) {
            std::vector<bool> accepts;
            for (QCheckBox* box : m_laneBoxes) {
                accepts.push_back(box->isChecked());
            }
            submitLimiterPrediction(accepts);
        } else {
            submitPrediction(Count(m_guess->value()));
        }
    });
    connect(m_guess, &QSpinBox::editingFinished, this, [this] {
        if (m_guess->hasFocus() && awaitingPrediction()) {
            submitPrediction(Count(m_guess->value()));
        }
    });
    connect(reveal, &QPushButton::clicked, this, &TeachView::revealPrediction);

    connect(m_transport, &TransportBar::firstRequested, this, [this] { showStep(0); });
    connect(m_transport, &TransportBar::lastRequested, this, [this] { showStep(lastStep()); });
    connect(m_transport, &TransportBar::backRequested, this, &TeachView::stepBack);
    connect(m_transport, &TransportBar::forwardRequested, this, &TeachView::stepForward);
    connect(m_transport, &TransportBar::stepRequested, this, &TeachView::showStep);
    connect(m_transport, &TransportBar::playToggled, this, [this] { setPlaying(!playing()); });
    connect(m_transport, &TransportBar::speedChanged, this,
            [this] { m_player->setInterval(int(m_transport->secondsPerStep() * 1000)); });
    connect(m_transport, &TransportBar::exportFrameRequested, this, &TeachView::chooseExportFile);
    connect(m_transport, &TransportBar::exportPdfRequested, this, &TeachView::chooseHandoutFile);
    connect(m_transport, &TransportBar::exportAllRequested, this,
            &TeachView::chooseExportDirectory);
    m_player->setInterval(int(m_transport->secondsPerStep() * 1000));
    connect(m_player, &QTimer::timeout, this, [this] {
        if (m_step >= lastStep()) {
            setPlaying(false);
        } else {
            stepForward();
        }
    });

    // The stepping keys act only when the widget with the focus leaves them (a combo box, a
    // spin box, a check box, a button or an editor keeps its own keys, issue 24): they arrive
    // here, in keyPressEvent, because the focused child ignored them. A click on a board gives
    // the view itself the focus.
    setFocusPolicy(Qt::ClickFocus);

    restyle();
    loadLesson(0);
}

TeachView::~TeachView() = default;

void TeachView::keyPressEvent(QKeyEvent* event) {
    const bool watching = m_modeTabs->currentIndex() == kWatchTab;
    if (!watching || (event->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier) {
        QWidget::keyPressEvent(event);
        return;
    }
    switch (event->key()) {
        case Qt::Key_Right:
            stepForward();
            break;
        case Qt::Key_Left:
            stepBack();
            break;
        case Qt::Key_Space:
            setPlaying(!playing());
            break;
        case Qt::Key_Home:
            showStep(0);
            break;
        case Qt::Key_End:
            showStep(lastStep());
            break;
        case Qt::Key_Down:
            showSubStep(m_subStep + 1);
            break;
        case Qt::Key_Up:
            showSubStep(std::max(-1, m_subStep - 1));
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

void TeachView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    const QEvent::Type type = event->type();
    if ((type == QEvent::PaletteChange || type == QEvent::ApplicationPaletteChange ||
         type == QEvent::StyleChange) &&
        m_narrationBox && &ts::colors() != m_styledWith) {
        restyle();
    }
}

// The colours set once rather than looked up when painting: the style sheets, the narration's
// HTML (present() writes its colours into it) and the editor's marks.
void TeachView::restyle() {
    const ts::TeachPalette& c = ts::colors();
    m_styledWith = &c;
    m_narrationBox->setStyleSheet(QStringLiteral("#narrationBox { %1 }").arg(boardStyle()));
    m_narration->setStyleSheet(QStringLiteral("color: %1;").arg(c.ink.name()));
    m_scoreLabel->setStyleSheet(QStringLiteral("color: %1;").arg(c.inWindowInk.name()));
    m_lessons->restyle();
    m_build->restyle();
    m_codePanel->restyle();
    m_transport->restyle();
    if (m_limits || m_timeline) {
        if (m_subStep >= 0) {
            presentSubStep();
        } else {
            present(m_step, false);
        }
    }
    for (QWidget* w : findChildren<QWidget*>()) {
        w->update();
    }
}

void TeachView::loadLesson(int index) {
    m_lessons->chooseLesson(index);
}

std::optional<teach::ParseError> TeachView::runOperations(const QString& text,
                                                          std::chrono::seconds window) {
    if (m_lessons->operationsText() != text) {
        m_lessons->setOperationsText(text);
    }
    return run(text, window);
}

std::optional<teach::ParseError> TeachView::run(const QString& text, std::chrono::seconds window) {
    teach::ParseResult parsed = teach::parseOperations(text.toStdString());
    if (const auto* error = std::get_if<teach::ParseError>(&parsed)) {
        m_lessons->showError(*error);
        return *error;
    }
    m_lessons->clearError();
    setPlaying(false);
    cancelPrediction();
    m_revealed.clear();
    m_verdictStep = -1;
    auto operations = std::move(std::get<std::vector<Operation>>(parsed));
    const teach::Lesson& lesson = teach::lessons().at(std::size_t(m_lessons->chosenLesson()));
    if (lesson.kind == teach::LessonKind::RateLimit) {
        m_limits = std::make_unique<teach::LimiterTimeline>(
            std::move(operations), RateLimit{lesson.limit, window}, lesson.limiters);
    } else {
        m_limits.reset();
        m_timeline = std::make_unique<teach::Timeline>(std::move(operations), window, lesson.code);
        m_code->setCode(lesson.code);
    }
    // A chart lesson's narration ends with its Cost or Memory line: the narration gets six (bytes:
    // eight) lines instead of four (no scrolling at 1280x720), the ring and the goal text give up
    // the height, and the panels the lesson is not about step aside (the queues while counting slot
    // visits, the code while comparing bytes). Whatever shrinks goes first: a window is grown
    // to its minimum at once, and never shrunk back.
    const bool charted = !m_limits && lesson.chart != teach::LessonChart::None;
    const int lineSpacing = QFontMetrics(m_narration->font()).lineSpacing();
    if (!m_limits) {
        m_chart->fill(*m_timeline, lesson.chart);
    }
    const bool queues = lesson.chart != teach::LessonChart::SlotVisits;
    const bool code = lesson.chart != teach::LessonChart::Bytes;
    if (charted) {
        m_ring->setCompact(true);
        m_lessons->setGoalLines(5);
        if (!queues) {
            m_deque->hide();
            m_vector->hide();
        }
        if (!code) {
            m_code->hide();
        }
    } else {
        m_chart->hide();
        m_narrationMinimum = lineSpacing * 4 + 26;
        m_narrationScroll->setMinimumHeight(m_narrationMinimum);
    }
    refreshLayouts();
    if (charted) {
        // The bytes lesson's Memory line is the longer one.
        const int lines = lesson.chart == teach::LessonChart::Bytes ? 7 : 6;
        m_narrationMinimum = lineSpacing * lines + 26;
        m_narrationScroll->setMinimumHeight(m_narrationMinimum);
        m_deque->setVisible(queues);
        m_vector->setVisible(queues);
        m_code->setVisible(code);
        m_chart->show();
    } else {
        m_ring->setCompact(false);
        m_lessons->setGoalLines(9);
        m_deque->show();
        m_vector->show();
        m_code->show();
    }
    refreshLayouts();
    m_practicing = m_startingPractice && !m_limits;
    m_lessons->predictSwitch()->setEnabled(!m_practicing);
    m_answers.clear();
    m_score = {};
    m_mistakes.clear();
    m_questions.clear();
    m_limiterQuestions.clear();
    qDeleteAll(m_laneBoxes);
    m_laneBoxes.clear();
    if (m_limits) {
        m_limiterQuestions = teach::limiterQuestions(*m_limits);
        for (const std::string& name : m_limits->names()) {
            auto* box =
                new QCheckBox(QString::fromStdString(teach::limiterTitle(name)), m_laneChoices);
            box->setToolTip(tr("Tick it if the %1 accepts the request")
                                .arg(QString::fromStdString(teach::limiterTitle(name))));
            m_laneChoices->layout()->addWidget(box);
            m_laneBoxes.push_back(box);
        }
    }
    if (!m_limits) {
        for (teach::Question& q : teach::questions(*m_timeline)) {
            if (m_practicing || q.kind == teach::Question::Kind::GetHits) {
                m_questions.push_back(std::move(q));
            }
        }
    }
    if (m_limits) {
        showTab(kWatchTab);
    } else {
        m_build->setOperations(m_timeline->operations(), window);
        m_codePanel->setLesson(m_timeline->operations(), window);
    }
    m_modeTabs->setTabEnabled(kBuildTab, !m_limits);
    m_modeTabs->setTabEnabled(kCodeTab, !m_limits);
    showTab(m_modeTabs->currentIndex());
    m_subBox->setVisible(!m_limits);
    m_lessons->setWindow(window);
    present(0, false);
    return std::nullopt;
}

// Layout items cache their widgets' minimum sizes until the next event loop turn; showing a
// widget activates the layout at once, with those stale sizes (and a window grown to its
// minimum is never shrunk back).
void TeachView::refreshLayouts() {
    for (QWidget* w : findChildren<QWidget*>()) {
        w->updateGeometry();
    }
    for (QLayout* l : findChildren<QLayout*>()) {
        l->invalidate();
    }
    layout()->activate();
}

void TeachView::showTab(int tab) {
    tab = m_limits ? kWatchTab : tab;  // a rate-limit lesson has no ring to build or code
    if (m_modeTabs->currentIndex() != tab) {
        const QSignalBlocker block(m_modeTabs);
        m_modeTabs->setCurrentIndex(tab);
    }
    if (tab != kWatchTab) {
        setPlaying(false);
    }
    m_panes->setCurrentIndex(tab == kBuildTab ? 2 : tab == kCodeTab ? 3 : m_limits ? 1 : 0);
}

void TeachView::showBuild(bool on) {
    showTab(on ? kBuildTab : kWatchTab);
}

bool TeachView::buildShown() const {
    return m_modeTabs->currentIndex() == kBuildTab && !m_limits;
}

void TeachView::showCode(bool on) {
    showTab(on ? kCodeTab : kWatchTab);
}

bool TeachView::codeShown() const {
    return m_modeTabs->currentIndex() == kCodeTab && !m_limits;
}

int TeachView::lastStep() const {
    return int(m_limits ? m_limits->frames().size() : m_timeline->frames().size()) - 1;
}

bool TeachView::asksAt(int step) const {
    if (m_limits) {
        return m_predict && limiterQuestionAt(step) && !m_revealed.contains(step);
    }
    // A practice never asks a question twice, whatever the switch did (issue 24).
    return m_predict && questionAt(step) && !m_revealed.contains(step) &&
           !(m_practicing && m_answers.count(std::size_t(step)) > 0);
}

const teach::LimiterQuestion* TeachView::limiterQuestionAt(int step) const {
    for (const teach::LimiterQuestion& q : m_limiterQuestions) {
        if (q.step == std::size_t(step)) {
            return &q;
        }
    }
    return nullptr;
}

std::optional<int> TeachView::firstUnansweredUpTo(int step) const {
    if (!m_practicing) {
        return std::nullopt;
    }
    for (const teach::Question& q : m_questions) {
        if (int(q.step) <= step && asksAt(int(q.step))) {
            return int(q.step);
        }
    }
    return std::nullopt;
}

const teach::Question* TeachView::questionAt(int step) const {
    for (const teach::Question& q : m_questions) {
        if (q.step == std::size_t(step)) {
            return &q;
        }
    }
    return nullptr;
}

void TeachView::startPractice(std::uint64_t seed, teach::PracticeLevel level) {
    const auto window = m_lessons->window();
    const QString text = QString::fromStdString(teach::practiceOperations(seed, window, level));
    if (teach::lessons().at(std::size_t(m_lessons->chosenLesson())).kind ==
        teach::LessonKind::RateLimit) {
        m_lessons->chooseLesson(0);  // practice runs on the ring
    }
    m_lessons->setOperationsText(text);
    m_startingPractice = true;
    m_practiceSeed = seed;
    run(text, window);
    m_startingPractice = false;
    setPredictMode(true);
    m_scoreLabel->setText(
        tr("Practice, seed %1: %2").arg(seed).arg(QString::fromStdString(m_score.text())));
}

QString TeachView::narration() const {
    return m_narration->text();
}

void TeachView::showStep(int step) {
    cancelPrediction();
    step = std::clamp(step, 0, lastStep());
    // In a practice no jump (End, the scrubber) passes a question not answered yet: the view
    // stops before it and asks (issue 24: the answers were visible before they were asked).
    if (const std::optional<int> question = firstUnansweredUpTo(step)) {
        present(*question - 1, false);
        askPrediction(*question);
        return;
    }
    present(step, false);
}

void TeachView::stepForward() {
    if (awaitingPrediction()) {
        m_guess->setFocus();
        return;
    }
    const int next = m_step + 1;
    if (next > lastStep()) {
        setPlaying(false);
        return;
    }
    if (asksAt(next)) {
        setPlaying(false);
        askPrediction(next);
        return;
    }
    present(next, true);
}

void TeachView::stepBack() {
    cancelPrediction();
    if (m_step > 0) {
        present(m_step - 1, false);
    }
}

void TeachView::setPlaying(bool on) {
    if (on == playing()) {
        return;
    }
    if (on) {
        cancelPrediction();
        if (m_step >= lastStep()) {
            present(0, false);
        }
        m_player->start();
    } else {
        m_player->stop();
    }
    updateTransport();
}

bool TeachView::playing() const {
    return m_player->isActive();
}

void TeachView::setPredictMode(bool on) {
    on = on || m_practicing;  // a practice is Predict mode until it ends
    m_predict = on;
    {
        const QSignalBlocker blocker(m_lessons->predictSwitch());
        m_lessons->predictSwitch()->setChecked(on);
    }
    cancelPrediction();
    m_revealed.clear();
}

void TeachView::askPrediction(int step) {
    m_guess->setVisible(!m_limits);
    m_laneChoices->setVisible(m_limits != nullptr);
    if (m_limits) {
        m_pendingStep = step;
        m_questionText = tr("Your turn: %1 Tick each limiter that accepts it.")
                             .arg(QString::fromStdString(limiterQuestionAt(step)->prompt));
        for (QCheckBox* box : m_laneBoxes) {
            box->setChecked(false);
        }
        m_narrationScroll->setMinimumHeight(
            std::max(QFontMetrics(m_narration->font()).lineSpacing() * 2 + 26,
                     m_narrationMinimum - m_predictRow->sizeHint().height()));
        m_predictRow->show();
        if (!m_laneBoxes.empty()) {
            m_laneBoxes.front()->setFocus();
        }
        present(m_step, false);
        return;
    }
    const Frame& f = m_timeline->frames()[std::size_t(step)];
    const auto w = m_timeline->window().count();
    m_pendingStep = step;
    // A hit exactly at the window's open end: naming the window would give the answer away
    // (issue 24), so the question names W and t only.
    const bool onTheEdge = std::any_of(f.naive.begin(), f.naive.end(), [&](const teach::Pair& p) {
        return f.windowLow && p.second == *f.windowLow;
    });
    QString question;
    if (m_practicing) {  // no window given away: that is part of the question
        question = tr("Your turn: %1").arg(QString::fromStdString(questionAt(step)->prompt));
    } else if (*f.windowLow == f.op->second - w) {
        question = tr("Your turn: what will getHits(%1) return? It counts the hits of the last "
                      "%2 seconds up to %1.")
                       .arg(f.op->second)
                       .arg(w);
    } else if (onTheEdge) {
        question = tr("Your turn: what will getHits(%1) return? The newest second is %2, and "
                      "the counter keeps only the last %3 seconds up to it.")
                       .arg(f.op->second)
                       .arg(*f.head)
                       .arg(w);
    } else {
        question = tr("Your turn: what will getHits(%1) return? The window will be %2: the "
                      "newest second is %3, so seconds up to %4 are already forgotten.")
                       .arg(f.op->second)
                       .arg(QString::fromStdString(f.windowText()))
                       .arg(*f.head)
                       .arg(*f.windowLow);
    }
    m_questionText = question;
    m_guess->setValue(0);
    // The answer row takes its height from the narration (which scrolls meanwhile), so the
    // view keeps its size at 1280x720.
    m_narrationScroll->setMinimumHeight(
        std::max(QFontMetrics(m_narration->font()).lineSpacing() * 2 + 26,
                 m_narrationMinimum - m_predictRow->sizeHint().height()));
    m_predictRow->show();
    m_guess->setFocus();
    m_guess->selectAll();
    present(m_step, false);
}

// The end of a practice: the score and the mistakes made, the most frequent first.
QString TeachView::practiceSummary() const {
    QString text = tr("Practice done: %1.").arg(QString::fromStdString(m_score.text()));
    std::vector<std::pair<int, std::string>> made;
    for (const auto& [name, times] : m_mistakes) {
        made.emplace_back(times, name);
    }
    std::sort(made.begin(), made.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList parts;
    for (const auto& [times, name] : made) {
        parts << (times == 1 ? QString::fromStdString(name)
                             : tr("%1 (%2 times)").arg(QString::fromStdString(name)).arg(times));
    }
    if (!parts.isEmpty()) {
        text += tr(" Mistakes to look at again: %1.").arg(parts.join(QStringLiteral("; ")));
    } else if (m_score.right == m_score.asked) {
        text += tr(" No mistake: try a harder level or another seed.");
    }
    return text;
}

QString TeachView::predictQuestion() const {
    return awaitingPrediction() ? m_questionText : QString();
}

void TeachView::submitPrediction(Count guess) {
    finishPrediction(guess);
}

void TeachView::revealPrediction() {
    if (m_limits) {
        finishLimiterPrediction(std::nullopt);
        return;
    }
    finishPrediction(std::nullopt);
}

void TeachView::submitLimiterPrediction(const std::vector<bool>& accepts) {
    finishLimiterPrediction(accepts);
}

void TeachView::finishLimiterPrediction(const std::optional<std::vector<bool>>& accepts) {
    if (!m_pendingStep || !m_limits) {
        return;
    }
    const int step = *m_pendingStep;
    cancelPrediction();
    const teach::LimiterQuestion& q = *limiterQuestionAt(step);
    const teach::LimiterVerdict verdict =
        teach::diagnoseLimiters(*m_limits, q, accepts.value_or(std::vector<bool>{}));
    m_verdict = accepts ? (verdict.right ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) +
                              QString::fromStdString(verdict.text)
                        : tr("The answer: %1").arg(QString::fromStdString(verdict.text));
    recordProgress(accepts && verdict.right);
    m_verdictStep = step;
    m_revealed.insert(step);
    present(step, true);
}

// Every answer counts for the lesson it was given in, kept while the view lives.
void TeachView::recordProgress(bool right) {
    teach::Score& progress = m_progress[m_lessons->exportName().toStdString()];
    progress.add(teach::Verdict{right, {}, {}});
    if (!m_practicing) {
        m_scoreLabel->setText(tr("This lesson: %1").arg(QString::fromStdString(progress.text())));
    }
}

void TeachView::finishPrediction(std::optional<Count> guess) {
    if (!m_pendingStep) {
        return;
    }
    const int step = *m_pendingStep;
    cancelPrediction();
    const teach::Question& q = *questionAt(step);
    const QString right = QString::number(q.answer);
    const teach::Verdict verdict =
        guess ? teach::diagnose(*m_timeline, q, *guess) : teach::Verdict{};
    if (!guess) {
        m_verdict = tr("The answer is %1.").arg(right);
    } else if (verdict.right) {
        m_verdict = tr("✔ You said %1: right!").arg(right);
    } else {
        m_verdict = QStringLiteral("✘ ") + QString::fromStdString(verdict.text);
    }
    if (guess) {
        m_answers[std::size_t(step)] = *guess;
    }
    recordProgress(verdict.right);
    if (m_practicing) {
        m_score.add(verdict);  // "just show me" counts as not right
        if (!verdict.mistake.empty()) {
            ++m_mistakes[verdict.mistake];
        }
        m_scoreLabel->setText(tr("Score: %1").arg(QString::fromStdString(m_score.text())));
        m_verdict += QStringLiteral(" (%1)").arg(QString::fromStdString(m_score.text()));
        if (m_score.asked == int(m_questions.size())) {
            m_verdict += QStringLiteral(" ") + practiceSummary();
        }
    }
    m_verdictStep = step;
    m_revealed.insert(step);
    present(step, true);
}

teach::LessonFile TeachView::lessonFile() const {
    teach::LessonFile file;
    file.lesson = teach::lessons().at(std::size_t(m_lessons->chosenLesson())).id;
    file.window = m_lessons->window();
    file.step = std::size_t(m_step);
    file.answers = m_answers;
    if (m_practicing) {
        file.practiceSeed = m_practiceSeed;
    }
    if (m_build->touched()) {
        file.variant = m_build->variant();
    }
    if (m_codePanel->touched()) {
        file.code = m_codePanel->source().toStdString();
    }
    file.operations = m_lessons->operationsText().toStdString();
    return file;
}

void TeachView::openLessonFile(const teach::LessonFile& file) {
    int index = 0;
    for (std::size_t i = 0; i < teach::lessons().size(); ++i) {
        if (teach::lessons()[i].id == file.lesson) {
            index = int(i);
        }
    }
    m_lessons->chooseLesson(index);
    const QString text = QString::fromStdString(file.operations);
    if (text != QString::fromStdString(teach::lessons()[std::size_t(index)].operations)) {
        m_lessons->setOperationsText(text);
    }
    m_startingPractice = file.practiceSeed.has_value();
    m_practiceSeed = file.practiceSeed.value_or(0);
    run(text, file.window);
    m_startingPractice = false;
    if (m_practicing || !file.answers.empty()) {
        setPredictMode(true);
    }
    for (const auto& [step, guess] : file.answers) {
        const teach::Question* q = questionAt(int(step));
        if (!q) {
            continue;
        }
        m_answers[step] = guess;
        m_revealed.insert(int(step));
        if (m_practicing) {
            m_score.add(teach::diagnose(*m_timeline, *q, guess));
        }
    }
    if (m_practicing) {
        m_scoreLabel->setText(tr("Score: %1").arg(QString::fromStdString(m_score.text())));
    }
    if (file.variant) {
        m_build->setVariant(*file.variant);
    }
    if (file.code) {
        m_codePanel->setSource(QString::fromStdString(*file.code));
    }
    showStep(int(file.step));
}

bool TeachView::saveLessonFile(const QString& path, QString* error) {
    QSaveFile out(path);
    const QByteArray bytes = QByteArray::fromStdString(teach::writeLessonFile(lessonFile()));
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
        if (error) {
            *error = tr("Could not write %1: %2").arg(path, out.errorString());
        }
        return false;
    }
    return true;
}

bool TeachView::loadLessonFile(const QString& path, QString* error) {
    std::string text;
    try {
        text = teach::readTeachFile(path.toStdString());  // whole, or refused with its size
    } catch (const teach::TeachFileError& e) {
        if (error) {
            *error = QString::fromStdString(e.what());
        }
        return false;
    }
    const auto read = teach::readLessonFile(text);
    if (const auto* e = std::get_if<teach::ParseError>(&read)) {
        if (error) {
            *error = tr("%1: %2").arg(path, QString::fromStdString(e->describe()));
        }
        return false;
    }
    openLessonFile(std::get<teach::LessonFile>(read));
    return true;
}

void TeachView::chooseLessonFileToSave() {
    setPlaying(false);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save this lesson"), m_lessons->exportName() + QStringLiteral(".lesson"),
        tr("hitcounter lessons (*.lesson);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !saveLessonFile(path, &error)) {
        QMessageBox::warning(this, tr("Save lesson"), error);
    }
}

void TeachView::chooseLessonFileToOpen() {
    setPlaying(false);
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a lesson"), QString(), tr("hitcounter lessons (*.lesson);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !loadLessonFile(path, &error)) {
        QMessageBox::warning(this, tr("Open lesson"), error);
    }
}

void TeachView::cancelPrediction() {
    if (m_pendingStep) {
        m_pendingStep.reset();
        // Gives its room back while hidden: at 1280x720 the panels above need it.
        QSizePolicy keep = m_predictRow->sizePolicy();
        keep.setRetainSizeWhenHidden(false);
        m_predictRow->setSizePolicy(keep);
        m_predictRow->hide();
        m_narrationScroll->setMinimumHeight(m_narrationMinimum);
        present(m_step, false);
    }
}

// The question being asked, at the top of the narration.
QString TeachView::questionHtml() const {
    if (!m_pendingStep) {
        return {};
    }
    return QStringLiteral("<b style='color:%1; font-size:large'>%2</b><br>")
        .arg(ts::colors().currentInk.name(), m_questionText.toHtmlEscaped());
}

// The verdict on the answer given for `step`, green when right.
QString TeachView::verdictHtml(int step) const {
    if (step != m_verdictStep || m_verdict.isEmpty()) {
        return {};
    }
    const bool good = m_verdict.startsWith(QChar(0x2714));
    return QStringLiteral("<b style='color:%1'>%2</b> ")
        .arg((good ? ts::colors().inWindowEdge : ts::colors().removed).name(),
             m_verdict.toHtmlEscaped());
}

QString TeachView::stepHeader(int step, const std::optional<Operation>& op) const {
    QString text = QStringLiteral("<span style='color:%1'><b>Step %2 of %3</b></span>")
                       .arg(ts::colors().softInk.name())
                       .arg(step)
                       .arg(lastStep());
    if (op) {
        text += QStringLiteral(" &nbsp;<b>%1</b>")
                    .arg(operationText(*op, m_limits != nullptr).toHtmlEscaped());
    }
    return text + QStringLiteral("<br>");
}

void TeachView::present(int step, bool animate) {
    m_step = step;
    if (m_limits) {
        const teach::LimiterFrame& f = m_limits->frames()[std::size_t(step)];
        m_limiterView->setStep(*m_limits, std::size_t(step));
        m_narration->setText(questionHtml() + stepHeader(step, f.op) + verdictHtml(step) +
                             QString::fromStdString(f.narration).toHtmlEscaped());
        m_lessons->setCurrentLine(f.op ? f.op->line : 0);
        updateTransport();
        Q_EMIT stepChanged(step);
        return;
    }
    const Frame& f = m_timeline->frames()[std::size_t(step)];
    const auto w = m_timeline->window().count();
    m_subStep = -1;
    {
        const QSignalBlocker blocker(m_subList);
        m_subList->clear();
        for (std::size_t i = 0; i < f.subSteps.size(); ++i) {
            m_subList->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(
                QString::fromStdString(f.subSteps[i].text)));
        }
    }
    m_subToggle->setText(
        f.subSteps.empty()
            ? tr("Inside this step: nothing runs at the start")
            : tr("Inside this step: %1 lines run (click one, or Down/Up)").arg(f.subSteps.size()));
    m_ring->setFrame(f, w);
    m_deque->setFrame(f, animate);
    m_vector->setFrame(f, animate);
    m_code->setLine(f.codeLine);
    QString text = questionHtml() + stepHeader(step, f.op) + verdictHtml(step) +
                   QString::fromStdString(f.narration).toHtmlEscaped();
    m_chart->setStep(step);
    if (m_chart->isVisibleTo(this) && m_chart->kind() == teach::LessonChart::SlotVisits && f.op) {
        text += tr("<br><b>Cost:</b> ") + QString::fromStdString(f.costText).toHtmlEscaped();
    }
    if (m_chart->isVisibleTo(this) && m_chart->kind() == teach::LessonChart::Bytes && f.op) {
        text += QStringLiteral("<br>") + QString::fromStdString(f.memoryText).toHtmlEscaped();
    }
    m_narration->setText(text);
    m_lessons->setCurrentLine(f.op ? f.op->line : 0);
    updateTransport();
    Q_EMIT stepChanged(step);
}

int TeachView::subStepCount() const {
    if (m_limits) {
        return 0;
    }
    return int(m_timeline->frames()[std::size_t(m_step)].subSteps.size());
}

void TeachView::showSubStep(int index) {
    if (m_limits) {
        return;
    }
    index = std::clamp(index, -1, subStepCount() - 1);
    if (index == m_subStep) {
        return;
    }
    m_subStep = index;
    const QSignalBlocker blocker(m_subList);
    m_subList->setCurrentRow(index);
    presentSubStep();
}

void TeachView::presentSubStep() {
    if (m_subStep < 0) {
        present(m_step, false);
        return;
    }
    const Frame& f = m_timeline->frames()[std::size_t(m_step)];
    const teach::SubStep& sub = f.subSteps[std::size_t(m_subStep)];
    // Every panel as this line left it (issue 24, wrong 4): the ring, the head and its window,
    // the deque and the vector (which change only when the operation ends), the code.
    const Frame shown = m_timeline->frameAt(std::size_t(m_step), std::size_t(m_subStep));
    m_ring->setFrame(shown, m_timeline->window().count());
    m_deque->setFrame(shown, false);
    m_vector->setFrame(shown, false);
    m_code->setLine(sub.line);
    // The line expands into why it is there (issue 24, Algorithms in Action style).
    const std::string_view why = teach::lineWhy(sub.line);
    m_narration->setText(
        stepHeader(m_step, f.op) +
        tr("<b>Line %1 of %2:</b> ").arg(m_subStep + 1).arg(f.subSteps.size()) +
        QString::fromStdString(sub.text).toHtmlEscaped() +
        (why.empty()
             ? QString()
             : tr("<br><i>Why: %1</i>")
                   .arg(QString::fromUtf8(why.data(), qsizetype(why.size())).toHtmlEscaped())));
}

void TeachView::updateTransport() {
    m_transport->setState(m_step, lastStep(), playing());
}

QImage TeachView::renderImage() {
    m_deque->finishAnimation();
    m_vector->finishAnimation();
    return grab().toImage();
}

bool TeachView::exportCurrentFrame(const QString& path, QString* error) {
    const LightForExport light(*this);
    const QImage image = renderImage();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        if (error) {
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        }
        return false;
    }
    return true;
}

int TeachView::exportAllFrames(const QString& directory, QString* error) {
    if (!QDir().mkpath(directory)) {
        if (error) {
            *error = tr("Could not create the folder %1").arg(directory);
        }
        return -1;
    }
    const LightForExport light(*this);
    const int original = m_step;
    const QString prefix = m_lessons->exportName();
    int written = 0;
    for (int step = 0; step <= lastStep(); ++step) {
        showStep(step);
        const QString name =
            QStringLiteral("%1-step-%2.png").arg(prefix).arg(step, 3, 10, QLatin1Char('0'));
        if (!exportCurrentFrame(QDir(directory).filePath(name), error)) {
            showStep(original);
            return -1;
        }
        ++written;
    }
    showStep(original);
    return written;
}

// The handout as a document (issue 24, handout.h), in the light palette of the exports.
std::unique_ptr<QTextDocument> TeachView::handoutDocument() {
    const teach::Lesson& lesson = teach::lessons().at(std::size_t(m_lessons->chosenLesson()));
    const bool own = m_lessons->lessonIndex() < 0;
    const HandoutLesson about{
        own ? tr("Your own operations") : QString::fromStdString(lesson.title),
        own ? tr("Work out each step of these operations by hand, then check the answers on "
                 "the last page.")
            : QString::fromStdString(lesson.goal),
        m_lessons->exportName()};
    return m_limits ? limiterHandout(*m_limits, about) : ringHandout(*m_timeline, about);
}

QImage TeachView::handoutPage(int page, QSize size) {
    const LightForExport light(*this);
    const auto document = handoutDocument();
    return handoutPageImage(*document, page, size);
}

int TeachView::exportHandoutPdf(const QString& path, QString* error) {
    const LightForExport light(*this);
    const auto document = handoutDocument();
    return writeHandoutPdf(*document, path,
                           tr("hitcounter lesson: %1").arg(m_lessons->exportName()), error);
}

void TeachView::chooseHandoutFile() {
    setPlaying(false);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the lesson as a PDF handout"),
        m_lessons->exportName() + QStringLiteral(".pdf"), tr("PDF (*.pdf)"));
    QString error;
    if (!path.isEmpty() && exportHandoutPdf(path, &error) < 0) {
        QMessageBox::warning(this, tr("Handout PDF"), error);
    }
}

void TeachView::chooseExportFile() {
    setPlaying(false);
    const QString suggestion = QStringLiteral("%1-step-%2.png")
                                   .arg(m_lessons->exportName())
                                   .arg(m_step, 3, 10, QLatin1Char('0'));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save this frame as PNG"),
                                                      suggestion, tr("PNG images (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportCurrentFrame(path, &error)) {
        QMessageBox::warning(this, tr("Save frame"), error);
    }
}

void TeachView::chooseExportDirectory() {
    setPlaying(false);
    const QString directory =
        QFileDialog::getExistingDirectory(this, tr("Save every step as numbered PNGs into"));
    if (directory.isEmpty()) {
        return;
    }
    QString error;
    const int written = exportAllFrames(directory, &error);
    if (written < 0) {
        QMessageBox::warning(this, tr("Save all steps"), error);
    }
}

}  // namespace hitcounter::ui
