#include "ui/teach/teach_view.h"

#include <QCheckBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabBar>
#include <QTimer>

#include "core/teach/lessons.h"
#include "ui/teach/build_panel.h"
#include "ui/teach/code_panel.h"
#include "ui/teach/code_view.h"
#include "ui/teach/lesson_panel.h"
#include "ui/teach/limiter_view.h"
#include "ui/teach/predict_controller.h"
#include "ui/teach/ring_view.h"
#include "ui/teach/sequence_view.h"
#include "ui/teach/step_chart.h"
#include "ui/teach/sub_step_list.h"
#include "ui/teach/teach_files.h"
#include "ui/teach/teach_layout.h"
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
      m_predict(new PredictController(*m_lessons, this)),
      m_panes(new QStackedWidget(this)),
      m_limiterView(new LimiterView(this)),
      m_build(new BuildPanel(this)),
      m_codePanel(new CodePanel(this)),
      m_modeTabs(new QTabBar(this)),
      m_transport(new TransportBar(this)),
      m_files(new TeachFiles(*this)),
      m_player(new QTimer(this)),
      m_subSteps(new SubStepList(this)) {
    setWindowTitle(tr("hitcounter: teaching mode"));
    // The Code tab draws a RingView and StepCharts of its own: these are the Watch tab's.
    m_ring->setObjectName(QStringLiteral("watchRing"));
    m_chart->setObjectName(QStringLiteral("watchChart"));
    const TeachLayout laidOut =
        layOutTeachView(*this, {m_lessons, m_modeTabs, m_panes, m_ring, m_chart, m_deque, m_vector,
                                m_code, m_limiterView, m_build, m_codePanel, m_narration,
                                m_subSteps, m_predict->row(), m_transport});
    m_narrationBox = laidOut.narrationBox;
    m_narrationScroll = laidOut.narrationScroll;

    connect(m_subSteps, &SubStepList::chosenChanged, this, &TeachView::presentSubStep);
    connect(m_modeTabs, &QTabBar::currentChanged, this, &TeachView::showTab);
    // The narration under the Build tab follows the differing step of the lesson.
    connect(m_build, &BuildPanel::lessonDiffersAt, this, &TeachView::showStep);

    connect(m_lessons, &LessonPanel::runRequested, this,
            [this](const QString& text, std::chrono::seconds window) { run(text, window); });
    connect(m_lessons->predictSwitch(), &QCheckBox::toggled, m_predict,
            &PredictController::setMode);
    connect(m_lessons, &LessonPanel::saveFileRequested, m_files,
            &TeachFiles::chooseLessonFileToSave);
    connect(m_lessons, &LessonPanel::openFileRequested, m_files,
            &TeachFiles::chooseLessonFileToOpen);
    connect(m_lessons, &LessonPanel::practiceRequested, this,
            [this](std::uint64_t seed, teach::PracticeLevel level) { startPractice(seed, level); });
    connect(m_predict, &PredictController::questionChanged, this, [this] {
        // The answer row takes its height from the narration (which scrolls meanwhile), so the
        // view keeps its size at 1280x720.
        m_narrationScroll->setMinimumHeight(
            m_predict->awaiting()
                ? std::max(QFontMetrics(m_narration->font()).lineSpacing() * 2 + 26,
                           m_narrationMinimum - m_predict->row()->sizeHint().height())
                : m_narrationMinimum);
        present(m_step, false);
    });
    connect(m_predict, &PredictController::answered, this,
            [this](int step) { present(step, true); });

    connect(m_transport, &TransportBar::firstRequested, this, [this] { showStep(0); });
    connect(m_transport, &TransportBar::lastRequested, this, [this] { showStep(lastStep()); });
    connect(m_transport, &TransportBar::backRequested, this, &TeachView::stepBack);
    connect(m_transport, &TransportBar::forwardRequested, this, &TeachView::stepForward);
    connect(m_transport, &TransportBar::stepRequested, this, &TeachView::showStep);
    connect(m_transport, &TransportBar::playToggled, this, [this] { setPlaying(!playing()); });
    connect(m_transport, &TransportBar::speedChanged, this,
            [this] { m_player->setInterval(int(m_transport->secondsPerStep() * 1000)); });
    connect(m_transport, &TransportBar::exportFrameRequested, m_files,
            &TeachFiles::chooseFrameFile);
    connect(m_transport, &TransportBar::exportPdfRequested, m_files,
            &TeachFiles::chooseHandoutFile);
    connect(m_transport, &TransportBar::exportAllRequested, m_files,
            &TeachFiles::chooseFramesDirectory);
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
            showSubStep(m_subSteps->chosen() + 1);
            break;
        case Qt::Key_Up:
            showSubStep(std::max(-1, m_subSteps->chosen() - 1));
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
    m_predict->restyle();
    m_lessons->restyle();
    m_build->restyle();
    m_codePanel->restyle();
    m_transport->restyle();
    if (m_limits || m_timeline) {
        if (m_subSteps->chosen() >= 0) {
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

std::optional<TextProblem> TeachView::runOperations(const QString& text,
                                                    std::chrono::seconds window) {
    if (m_lessons->operationsText() != text) {
        m_lessons->setOperationsText(text);
    }
    return run(text, window);
}

std::optional<TextProblem> TeachView::run(const QString& text, std::chrono::seconds window) {
    teach::ParseResult parsed = teach::parseOperations(text.toStdString());
    if (const auto* error = std::get_if<TextProblem>(&parsed)) {
        m_lessons->showError(*error);
        return *error;
    }
    m_lessons->clearError();
    setPlaying(false);
    m_predict->cancel();
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
    m_predict->startTimeline(m_limits ? nullptr : m_timeline.get(), m_limits.get(),
                             m_practiceToStart);
    if (m_limits) {
        showTab(kWatchTab);
    } else {
        m_build->setOperations(m_timeline->operations(), window);
        m_codePanel->setLesson(m_timeline->operations(), window);
    }
    m_modeTabs->setTabEnabled(kBuildTab, !m_limits);
    m_modeTabs->setTabEnabled(kCodeTab, !m_limits);
    showTab(m_modeTabs->currentIndex());
    m_subSteps->setVisible(!m_limits);
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

void TeachView::startPractice(std::uint64_t seed, teach::PracticeLevel level) {
    const auto window = m_lessons->window();
    const QString text = QString::fromStdString(teach::practiceOperations(seed, window, level));
    if (teach::lessons().at(std::size_t(m_lessons->chosenLesson())).kind ==
        teach::LessonKind::RateLimit) {
        m_lessons->chooseLesson(0);  // practice runs on the ring
    }
    m_lessons->setOperationsText(text);
    m_practiceToStart = seed;
    run(text, window);
    m_practiceToStart.reset();
    m_predict->setMode(true);
}

QString TeachView::narration() const {
    return m_narration->text();
}

void TeachView::showStep(int step) {
    m_predict->cancel();
    step = std::clamp(step, 0, lastStep());
    // In a practice no jump (End, the scrubber) passes a question not answered yet: the view
    // stops before it and asks (issue 24: the answers were visible before they were asked).
    if (const std::optional<int> question = m_predict->firstUnansweredUpTo(step)) {
        present(*question - 1, false);
        m_predict->ask(*question);
        return;
    }
    present(step, false);
}

void TeachView::stepForward() {
    if (m_predict->awaiting()) {
        m_predict->focusAnswer();
        return;
    }
    const int next = m_step + 1;
    if (next > lastStep()) {
        setPlaying(false);
        return;
    }
    if (m_predict->asksAt(next)) {
        setPlaying(false);
        m_predict->ask(next);
        return;
    }
    present(next, true);
}

void TeachView::stepBack() {
    m_predict->cancel();
    if (m_step > 0) {
        present(m_step - 1, false);
    }
}

void TeachView::setPlaying(bool on) {
    if (on == playing()) {
        return;
    }
    if (on) {
        m_predict->cancel();
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

teach::LessonFile TeachView::lessonFile() const {
    teach::LessonFile file;
    file.lesson = teach::lessons().at(std::size_t(m_lessons->chosenLesson())).id;
    file.window = m_lessons->window();
    file.step = std::size_t(m_step);
    file.answers = m_predict->answers();
    if (m_predict->practicing()) {
        file.practiceSeed = m_predict->practiceSeed();
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
    m_practiceToStart = file.practiceSeed;
    run(text, file.window);
    m_practiceToStart.reset();
    if (m_predict->practicing() || !file.answers.empty()) {
        m_predict->setMode(true);
    }
    m_predict->restoreAnswers(file.answers);
    if (file.variant) {
        m_build->setVariant(*file.variant);
    }
    if (file.code) {
        m_codePanel->setSource(QString::fromStdString(*file.code));
    }
    showStep(int(file.step));
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
        m_narration->setText(m_predict->questionHtml() + stepHeader(step, f.op) +
                             m_predict->verdictHtml(step) +
                             QString::fromStdString(f.narration).toHtmlEscaped());
        m_lessons->setCurrentLine(f.op ? f.op->line : 0);
        updateTransport();
        Q_EMIT stepChanged(step);
        return;
    }
    const Frame& f = m_timeline->frames()[std::size_t(step)];
    const auto w = m_timeline->window().count();
    m_subSteps->setSubSteps(f.subSteps);
    m_ring->setFrame(f, w);
    m_deque->setFrame(f, animate);
    m_vector->setFrame(f, animate);
    m_code->setLine(f.codeLine);
    QString text = m_predict->questionHtml() + stepHeader(step, f.op) +
                   m_predict->verdictHtml(step) +
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

int TeachView::subStep() const {
    return m_subSteps->chosen();
}

void TeachView::showSubStep(int index) {
    if (m_limits) {
        return;
    }
    index = std::clamp(index, -1, subStepCount() - 1);
    if (index == m_subSteps->chosen()) {
        return;
    }
    m_subSteps->choose(index);
    presentSubStep();
}

void TeachView::presentSubStep() {
    const int chosen = m_subSteps->chosen();
    if (chosen < 0) {
        present(m_step, false);
        return;
    }
    const Frame& f = m_timeline->frames()[std::size_t(m_step)];
    const teach::SubStep& sub = f.subSteps[std::size_t(chosen)];
    // Every panel as this line left it (issue 24, wrong 4): the ring, the head and its window,
    // the deque and the vector (which change only when the operation ends), the code.
    const Frame shown = m_timeline->frameAt(std::size_t(m_step), std::size_t(chosen));
    m_ring->setFrame(shown, m_timeline->window().count());
    m_deque->setFrame(shown, false);
    m_vector->setFrame(shown, false);
    m_code->setLine(sub.line);
    // The line expands into why it is there (issue 24, Algorithms in Action style).
    const std::string_view why = teach::lineWhy(sub.line);
    m_narration->setText(
        stepHeader(m_step, f.op) +
        tr("<b>Line %1 of %2:</b> ").arg(chosen + 1).arg(f.subSteps.size()) +
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

}  // namespace hitcounter::ui
