#include "ui/teach/code_panel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/teach/code_templates.h"
#include "ui/teach/code_check_runner.h"
#include "ui/teach/code_editor.h"
#include "ui/teach/ring_view.h"
#include "ui/teach/step_chart.h"
#include "ui/teach/teach_style.h"
#include "ui/teach/variables_view.h"

namespace hitcounter::ui {

namespace ts = teachstyle;
using teach::CallResult;
using teach::StepResult;

namespace {

teach::CounterLoader& defaultLoader() {
    static teach::CounterLoader loader;
    return loader;
}

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}
QString fromStd(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString opText(const teach::Operation& op) {
    return fromStd(teach::operationText(op));
}

// What the learner's call gave, in a few words.
QString yoursText(const StepResult& s) {
    if (!s.yours.ok()) {
        return s.yours.status == CallResult::Status::Error ? QObject::tr("threw")
                                                           : QObject::tr("stopped");
    }
    if (s.op.kind == teach::Operation::Kind::Hit) {
        return QStringLiteral("·");
    }
    return fromStd(s.yours.returned);
}

}  // namespace

CodePanel::CodePanel(QWidget* parent)
    : QWidget(parent),
      m_loader(defaultLoader()),
      m_runner(new CodeCheckRunner(this)),
      m_templates(new QComboBox(this)),
      m_editor(new CodeEditor(this)),
      m_check(new QPushButton(tr("Check my counter  (Ctrl+Return)"), this)),
      m_seed(new QSpinBox(this)),
      m_status(new QLabel(this)),
      m_verdict(new QLabel(this)),
      m_explanation(new QLabel(this)),
      m_steps(new QListWidget(this)),
      m_ring(new RingView(this)),
      m_variables(new VariablesView(this)),
      m_operationsChart(new StepChart(this)),
      m_bytesChart(new StepChart(this)) {
    setObjectName(QStringLiteral("codePanel"));
    // It shares the panes' stack with the ring: its minimum must not raise theirs.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    setAttribute(Qt::WA_StyledBackground);
    auto* root = new QHBoxLayout(this);
    root->setContentsMargins(8, 8, 8, 8);
    root->setSpacing(8);

    auto* left = new QVBoxLayout;
    left->setSpacing(4);
    // The heading over the template box: side by side they were wider than the pane at 1024x768.
    auto* top = new QVBoxLayout;
    top->setSpacing(2);
    auto* from = new QLabel(tr("Your counter in JavaScript. Start from:"), this);
    from->setObjectName(QStringLiteral("codeHeading"));
    from->setFont(ts::font(10, true));
    top->addWidget(from);
    m_templates->addItem(tr("Choose a template…"), QString());
    for (const teach::CodeTemplate& t : teach::codeTemplates()) {
        m_templates->addItem(fromStd(t.title), fromStd(t.id));
    }
    m_templates->setToolTip(
        tr("The write-ups' solutions in JavaScript: replace your code with "
           "one, then change it"));
    // The heading keeps its words; the template names are elided instead (at 1280x720 the
    // combo box took the width and cut "Start from:").
    m_templates->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_templates->setMinimumContentsLength(14);
    top->addWidget(m_templates);
    left->addLayout(top);
    m_editor->setToolTip(
        tr("class HitCounter { constructor(w) … hit(timestamp) … "
           "getHits(timestamp) … }: W is also a global"));
    left->addWidget(m_editor, 1);
    // The button over the seed and the status: side by side they took the room the ring and
    // the student's variables need at 1024x768.
    left->addWidget(m_check);
    auto* seedRow = new QHBoxLayout;
    m_seed->setRange(1, 999'999'999);
    m_seed->setPrefix(tr("seed "));
    m_seed->setToolTip(tr("The seed of the random operations (the same seed, the same ones)"));
    seedRow->addWidget(m_seed);
    m_status->setWordWrap(true);
    m_status->setFont(ts::font(9.5));
    seedRow->addWidget(m_status, 1);
    left->addLayout(seedRow);
    root->addLayout(left, 5);

    auto* right = new QVBoxLayout;
    right->setSpacing(4);
    m_verdict->setFont(ts::font(12.5, true));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_verdict);
    m_explanation->setFont(ts::font(10.5));
    m_explanation->setWordWrap(true);
    m_explanation->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* explanationScroll = new QScrollArea(this);
    explanationScroll->setWidget(m_explanation);
    explanationScroll->setWidgetResizable(true);
    explanationScroll->setFrameShape(QFrame::NoFrame);
    explanationScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    explanationScroll->setMinimumHeight(QFontMetrics(m_explanation->font()).lineSpacing() * 3 + 4);
    explanationScroll->setMaximumHeight(QFontMetrics(m_explanation->font()).lineSpacing() * 5 + 4);
    explanationScroll->setStyleSheet(QStringLiteral(
        "QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }"));
    right->addWidget(explanationScroll);
    // The smallest failing sequence in a strip of two lines across the pane (it stood beside
    // the ring and left it 170 px at 1280x720, its title and dial cut), the ring and the
    // student's variables side by side under it.
    m_steps->setObjectName(QStringLiteral("failingSteps"));
    m_steps->setFont(ts::mono(9));
    m_steps->setFlow(QListView::LeftToRight);
    m_steps->setWrapping(true);
    m_steps->setResizeMode(QListView::Adjust);
    m_steps->setSpacing(2);
    m_steps->setFixedHeight(2 * (QFontMetrics(m_steps->font()).lineSpacing() + 8) +
                            2 * m_steps->frameWidth());
    m_steps->setToolTip(
        tr("The smallest failing sequence: pick a step to see both counters "
           "after it"));
    right->addWidget(m_steps);
    auto* middle = new QHBoxLayout;
    middle->setSpacing(6);
    m_ring->setCompact(true);
    m_ring->setMinimumSize(146, 146);
    middle->addWidget(m_ring, 1);
    middle->addWidget(m_variables, 1);
    right->addLayout(middle, 3);
    auto* charts = new QHBoxLayout;
    charts->setSpacing(6);
    // Side by side, narrower than a chart's own minimum: the pane fits 1024x768.
    for (StepChart* chart : {m_operationsChart, m_bytesChart}) {
        chart->setMinimumSize(160, 110);
    }
    charts->addWidget(m_operationsChart);
    charts->addWidget(m_bytesChart);
    right->addLayout(charts, 2);
    root->addLayout(right, 7);

    connect(m_templates, &QComboBox::activated, this, [this](int index) {
        const QString id = m_templates->itemData(index).toString();
        if (!id.isEmpty()) {
            loadTemplate(id);
        }
    });
    connect(m_check, &QPushButton::clicked, this, &CodePanel::runCheck);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_editor);
    shortcut->setContext(Qt::WidgetShortcut);
    connect(shortcut, &QShortcut::activated, this, &CodePanel::runCheck);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loadingText) {
            return;
        }
        m_touched = true;
        if (m_report && !running()) {
            showStale(tr("Your code changed since this check: check it again."));
        }
        Q_EMIT sourceEdited();
    });
    connect(m_seed, &QSpinBox::valueChanged, this, [this] {
        if (m_report && !running()) {
            showStale(tr("The seed changed since this check: check again for its operations."));
        }
    });
    connect(m_steps, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row != m_shownStep) {
            showMinimalStep(row);
        }
    });
    connect(m_runner, &CodeCheckRunner::progressed, this, [this](int done, int total) {
        m_status->setText(tr("Checking… %1 of %2 sequences run").arg(done).arg(total));
    });
    connect(m_runner, &CodeCheckRunner::finished, this, &CodePanel::showResult);

    loadTemplate(QStringLiteral("ring"));
    m_touched = false;
    m_verdict->setText(
        tr("Write or change the counter, then check it against the reference "
           "counter (RingCounter)."));
    m_status->setText(m_loader ? QString()
                               : tr("This build runs no JavaScript (no QJSEngine loader)."));
    m_check->setEnabled(bool(m_loader));
    showMinimalStep(-1);
    fillCharts();
    restyle();
}

CodePanel::~CodePanel() = default;

void CodePanel::setDefaultLoader(teach::CounterLoader loader) {
    defaultLoader() = std::move(loader);
}

void CodePanel::setLoader(teach::CounterLoader loader) {
    m_loader = std::move(loader);
    m_check->setEnabled(bool(m_loader));
    m_status->clear();
}

void CodePanel::setLesson(std::vector<teach::Operation> operations, std::chrono::seconds window) {
    const bool changed = window != m_window || operations.size() != m_lesson.size();
    m_lesson = std::move(operations);
    m_window = window;
    if (changed && m_report && !running()) {
        showStale(tr("The lesson changed since this check (now W = %1): check again.")
                      .arg(window.count()));
    }
}

QString CodePanel::source() const {
    return m_editor->toPlainText();
}

void CodePanel::setSource(const QString& source) {
    m_loadingText = true;
    m_editor->setPlainText(source);
    m_loadingText = false;
    m_touched = true;
    if (m_report && !running()) {
        showStale(tr("Another code is loaded: check it."));
    }
}

void CodePanel::loadTemplate(const QString& id) {
    if (const teach::CodeTemplate* t = teach::codeTemplate(id.toStdString())) {
        setSource(fromStd(t->source));
        const int index = m_templates->findData(id);
        m_templates->setCurrentIndex(std::max(0, index));
    }
}

bool CodePanel::running() const {
    return m_runner->running();
}

void CodePanel::runCheck() {
    if (!m_loader) {
        return;
    }
    m_touched = true;
    m_editor->markErrorLine(0);
    teach::CheckOptions options;
    options.window = m_window;
    options.seed = std::uint64_t(m_seed->value());
    options.lessonOperations = m_lesson;
    m_status->setText(tr("Checking…"));
    setVerdict(tr("Checking your counter against the reference at W = %1…").arg(m_window.count()),
               ts::colors().softInk);
    m_runner->start(m_loader, source().toStdString(), std::move(options));
}

bool CodePanel::waitForCheck(std::chrono::milliseconds timeout) {
    QElapsedTimer clock;
    clock.start();
    while (running() && clock.elapsed() < timeout.count()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return !running();
}

void CodePanel::setVerdict(const QString& text, const QColor& color) {
    m_verdict->setText(text);
    m_verdict->setStyleSheet(QStringLiteral("color: %1;").arg(color.name()));
}

QString CodePanel::verdict() const {
    return m_verdict->text();
}

QString CodePanel::explanation() const {
    return m_explanation->text();
}

void CodePanel::showStale(const QString& why) {
    m_status->setText(why);
    setVerdict(tr("Not checked yet: ") + why, ts::colors().softInk);
}

void CodePanel::showResult() {
    const auto& result = m_runner->result();
    m_report.reset();
    m_minimalTimeline.reset();
    m_steps->clear();
    m_shownStep = -1;
    if (!result) {
        return;
    }
    m_ringGrowth = result->ringGrowth;
    if (result->error) {
        m_editor->markErrorLine(result->error->line);
        setVerdict(tr("✘ It does not run: %1").arg(fromStd(result->error->describe())),
                   ts::colors().removed);
        m_explanation->setText(result->error->line > 0
                                   ? tr("Line %1 is marked in the editor.").arg(result->error->line)
                                   : QString());
        m_status->clear();
        fillCharts();
        Q_EMIT checkFinished();
        return;
    }
    m_report = result->report;
    const teach::CheckReport& r = *m_report;
    const auto* mistake = r.mistake ? &teach::mistakeInfo(*r.mistake) : nullptr;
    QStringList why;
    if (!r.agrees && r.failing) {
        const teach::TraceRun& run = *r.failing;
        if (*run.difference >= run.steps.size()) {
            setVerdict(tr("✘ The constructor failed: %1").arg(fromStd(run.started.message)),
                       ts::colors().removed);
        } else {
            const StepResult& s = run.steps[*run.difference];
            if (!s.yours.ok()) {
                setVerdict(tr("✘ Differs: %1").arg(fromStd(s.yours.message)), ts::colors().removed);
            } else {
                setVerdict(tr("✘ Differs at step %1 of \"%2\": %3 returned %4, the reference %5.")
                               .arg(*run.difference + 1)
                               .arg(fromStd(run.name), opText(s.op), fromStd(s.yours.returned))
                               .arg(qulonglong(s.reference.value_or(0))),
                           ts::colors().removed);
            }
        }
        QStringList minimal;
        for (const teach::Operation& op : r.minimal) {
            minimal << opText(op);
        }
        why << tr("<b>Smallest failing sequence</b> (%1 operations): %2.")
                   .arg(r.minimal.size())
                   .arg(minimal.join(QStringLiteral("; ")).toHtmlEscaped());
    } else if (mistake) {
        setVerdict(tr("✔ Same answers as the reference on all %1 sequences, but: %2.")
                       .arg(r.traces)
                       .arg(fromStd(mistake->title)),
                   ts::colors().currentInk);
    } else {
        setVerdict(tr("✔ Same answers as the reference on all %1 sequences (%2 calls) at W = %3.")
                       .arg(r.traces)
                       .arg(r.calls)
                       .arg(m_window.count()),
                   ts::colors().inWindowInk);
    }
    if (mistake) {
        why << tr("<b>%1</b> (%2): %3")
                   .arg(fromStd(mistake->title).toHtmlEscaped(), fromStd(mistake->name),
                        fromStd(mistake->why).toHtmlEscaped());
        if (!r.mistakeEvidence.empty()) {
            why << fromStd(r.mistakeEvidence).toHtmlEscaped();
        }
    }
    if (!r.lessonNote.empty()) {
        why << fromStd(r.lessonNote).toHtmlEscaped();
    }
    why << tr("Operations per call: at most %1, %2 on average; memory at most %3 bytes.")
               .arg(r.maxOperations)
               .arg(r.meanOperations, 0, 'f', 1)
               .arg(r.memoryBytes);
    m_explanation->setText(why.join(QStringLiteral("<br>")));
    m_status->setText(tr("Checked in %1 ms.").arg(result->took.count()));
    const teach::TraceRun& minimalRun = r.minimalRun;
    for (std::size_t k = 0; k < minimalRun.steps.size(); ++k) {
        const StepResult& s = minimalRun.steps[k];
        QString row = QStringLiteral("%1. %2").arg(k + 1).arg(opText(s.op));
        if (s.op.kind == teach::Operation::Kind::GetHits || !s.yours.ok()) {
            row += tr(": yours %1, ref %2")
                       .arg(yoursText(s),
                            s.reference ? QString::number(*s.reference) : QStringLiteral("·"));
        }
        if (s.differs) {
            row += QStringLiteral("  ✘");
        }
        m_steps->addItem(row);
    }
    if (!r.minimal.empty() && teach::chronological(r.minimal)) {
        m_minimalTimeline = std::make_unique<teach::Timeline>(r.minimal, m_window);
    }
    fillCharts();
    showMinimalStep(int(minimalRun.steps.size()) - 1);
    Q_EMIT checkFinished();
}

int CodePanel::minimalStepCount() const {
    return m_report ? int(m_report->minimalRun.steps.size()) : 0;
}

void CodePanel::showMinimalStep(int index) {
    if (!m_report || index < 0 || index >= minimalStepCount()) {
        m_ring->setFrame(teach::Frame{}, m_window.count());
        m_variables->setVariables({}, std::size_t(m_window.count()), std::nullopt,
                                  tr("Your counter's fields"));
        return;
    }
    m_shownStep = index;
    {
        const QSignalBlocker block(m_steps);
        m_steps->setCurrentRow(index);
    }
    const StepResult& s = m_report->minimalRun.steps[std::size_t(index)];
    if (m_minimalTimeline) {
        m_ring->setFrame(m_minimalTimeline->frames()[std::size_t(index) + 1], m_window.count());
    }
    m_variables->setVariables(s.yours.variables, std::size_t(m_window.count()),
                              std::size_t(s.op.second % m_window.count()),
                              tr("Yours after %1 (%2 operations, %3 bytes)")
                                  .arg(opText(s.op))
                                  .arg(s.yours.operations)
                                  .arg(s.yours.memoryBytes));
}

// The growth probes: the learner's curve against the write-up's ring, measured the same way.
void CodePanel::fillCharts() {
    const std::vector<teach::GrowthPoint> none;
    const std::vector<teach::GrowthPoint>& yours = m_report ? m_report->growth : none;
    const std::size_t n = std::min(yours.size(), m_ringGrowth.size());
    StepChart::Points operations{
        tr("Operations of a getHits that removes nothing"), QString(), tr("hits held"), {}, {}, {}};
    StepChart::Points bytes{tr("Bytes held after every hit left the window"),
                            QStringLiteral("B"),
                            tr("hits"),
                            {},
                            {},
                            {}};
    operations.series = {{tr("yours"), &ts::TeachPalette::removed, {}},
                         {tr("the ring"), &ts::TeachPalette::inWindowEdge, {}}};
    bytes.series = operations.series;
    for (std::size_t i = 0; i < n; ++i) {
        const teach::GrowthPoint& g = yours[i];
        const teach::GrowthPoint& ring = m_ringGrowth[i];
        operations.labels.push_back(QString::number(g.hits));
        bytes.labels.push_back(QString::number(g.hits));
        operations.series[0].values.push_back(double(g.idleOperations));
        operations.series[1].values.push_back(double(ring.idleOperations));
        bytes.series[0].values.push_back(double(g.bytesAfter));
        bytes.series[1].values.push_back(double(ring.bytesAfter));
        operations.captions.push_back(
            tr("getHits with %1 hits held: yours %2, the ring %3 operations")
                .arg(g.hits)
                .arg(g.idleOperations)
                .arg(ring.idleOperations));
        bytes.captions.push_back(tr("After %1 hits left the window: yours %2 B, the ring %3 B")
                                     .arg(g.hits)
                                     .arg(g.bytesAfter)
                                     .arg(ring.bytesAfter));
    }
    if (n == 0) {
        operations.series.clear();
        bytes.series.clear();
    }
    m_operationsChart->fillPoints(std::move(operations));
    m_bytesChart->fillPoints(std::move(bytes));
}

void CodePanel::restyle() {
    const ts::TeachPalette& c = ts::colors();
    setStyleSheet(QStringLiteral("#codePanel { background: %1; border: 1px solid %2; "
                                 "border-radius: 10px; } #codePanel QLabel { color: %3; }")
                      .arg(c.board.name(), c.boardBorder.name(), c.ink.name()));
    if (m_report) {
        // The verdict's colour was written into its style sheet: write it again.
        const bool differs = !m_report->agrees;
        setVerdict(m_verdict->text(), differs             ? c.removed
                                      : m_report->mistake ? c.currentInk
                                                          : c.inWindowInk);
    }
    update();
}

}  // namespace hitcounter::ui
