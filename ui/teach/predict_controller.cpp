#include "ui/teach/predict_controller.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <algorithm>

#include "ui/teach/lesson_panel.h"
#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;

PredictController::PredictController(LessonPanel& lessons, QWidget* rowParent)
    : QObject(rowParent),
      m_lessons(lessons),
      m_row(new QWidget(rowParent)),
      m_guess(new QSpinBox(m_row)),
      m_laneChoices(new QWidget(m_row)),
      m_scoreLabel(new QLabel(m_row)) {
    auto* layout = new QHBoxLayout(m_row);
    layout->setContentsMargins(0, 0, 0, 0);
    // The question opens the narration (TeachView), which wraps and scrolls, so a long one
    // never pushes the answer box off the window at 1280x720 (issue 24); the row keeps the
    // score, the answer box and the buttons on one line.
    m_guess->setObjectName(QStringLiteral("guess"));
    m_guess->setRange(0, 1'000'000);
    m_guess->setFont(ts::font(12));
    m_guess->setMinimumWidth(90);
    auto* check = new QPushButton(tr("Check my answer"), m_row);
    check->setDefault(true);
    auto* reveal = new QPushButton(tr("Just show me"), m_row);
    m_scoreLabel->setFont(ts::font(11, true));
    layout->addWidget(m_scoreLabel, 1);
    layout->addWidget(m_guess);
    // A rate-limit question: one box per limiter, ticked for "accepts" (issue 24).
    auto* laneLayout = new QHBoxLayout(m_laneChoices);
    laneLayout->setContentsMargins(0, 0, 0, 0);
    m_laneChoices->hide();
    layout->addWidget(m_laneChoices);
    layout->addWidget(check);
    layout->addWidget(reveal);
    setRowShown(false);

    connect(check, &QPushButton::clicked, this, [this] {
        if (m_limits) {
            std::vector<bool> accepts;
            for (QCheckBox* box : m_laneBoxes) {
                accepts.push_back(box->isChecked());
            }
            submitLimiters(accepts);
        } else {
            submit(Count(m_guess->value()));
        }
    });
    connect(m_guess, &QSpinBox::editingFinished, this, [this] {
        if (m_guess->hasFocus() && awaiting()) {
            submit(Count(m_guess->value()));
        }
    });
    connect(reveal, &QPushButton::clicked, this, &PredictController::reveal);
}

void PredictController::restyle() {
    m_scoreLabel->setStyleSheet(QStringLiteral("color: %1;").arg(ts::colors().inWindowInk.name()));
}

void PredictController::startTimeline(const teach::Timeline* ring,
                                      const teach::LimiterTimeline* limits,
                                      std::optional<std::uint64_t> practiceSeed) {
    cancel();
    m_ring = ring;
    m_limits = limits;
    m_revealed.clear();
    m_verdictStep = -1;
    m_practicing = practiceSeed.has_value() && !m_limits;
    m_practiceSeed = practiceSeed.value_or(0);
    m_lessons.predictSwitch()->setEnabled(!m_practicing);
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
            const QString title = QString::fromStdString(teach::limiterTitle(name));
            auto* box = new QCheckBox(title, m_laneChoices);
            box->setToolTip(tr("Tick it if the %1 accepts the request").arg(title));
            m_laneChoices->layout()->addWidget(box);
            m_laneBoxes.push_back(box);
        }
        return;
    }
    for (teach::Question& q : teach::questions(*m_ring)) {
        if (m_practicing || q.kind == teach::Question::Kind::GetHits) {
            m_questions.push_back(std::move(q));
        }
    }
    if (m_practicing) {
        showScore(tr("Practice, seed %1: %2").arg(m_practiceSeed));
    }
}

void PredictController::restoreAnswers(const std::map<std::size_t, Count>& answers) {
    for (const auto& [step, guess] : answers) {
        const teach::Question* q = questionAt(int(step));
        if (!q) {
            continue;
        }
        m_answers[step] = guess;
        m_revealed.insert(int(step));
        if (m_practicing) {
            m_score.add(teach::diagnose(*m_ring, *q, guess));
        }
    }
    if (m_practicing) {
        showScore(tr("Score: %1"));
    }
}

void PredictController::setMode(bool on) {
    on = on || m_practicing;  // a practice is Predict mode until it ends
    m_on = on;
    {
        const QSignalBlocker blocker(m_lessons.predictSwitch());
        m_lessons.predictSwitch()->setChecked(on);
    }
    cancel();
    m_revealed.clear();
}

bool PredictController::asksAt(int step) const {
    if (m_limits) {
        return m_on && limiterQuestionAt(step) && !m_revealed.contains(step);
    }
    // A practice never asks a question twice, whatever the switch did (issue 24).
    return m_on && questionAt(step) && !m_revealed.contains(step) &&
           !(m_practicing && m_answers.count(std::size_t(step)) > 0);
}

std::optional<int> PredictController::firstUnansweredUpTo(int step) const {
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

const teach::Question* PredictController::questionAt(int step) const {
    for (const teach::Question& q : m_questions) {
        if (q.step == std::size_t(step)) {
            return &q;
        }
    }
    return nullptr;
}

const teach::LimiterQuestion* PredictController::limiterQuestionAt(int step) const {
    for (const teach::LimiterQuestion& q : m_limiterQuestions) {
        if (q.step == std::size_t(step)) {
            return &q;
        }
    }
    return nullptr;
}

void PredictController::ask(int step) {
    m_guess->setVisible(!m_limits);
    m_laneChoices->setVisible(m_limits != nullptr);
    m_pendingStep = step;
    if (m_limits) {
        m_questionText = tr("Your turn: %1 Tick each limiter that accepts it.")
                             .arg(QString::fromStdString(limiterQuestionAt(step)->prompt));
        for (QCheckBox* box : m_laneBoxes) {
            box->setChecked(false);
        }
    } else {
        m_questionText = ringQuestion(step);
        m_guess->setValue(0);
    }
    // The view makes room first: showing the row lays the window out at once.
    Q_EMIT questionChanged();
    setRowShown(true);
    if (!m_limits) {
        m_guess->setFocus();
        m_guess->selectAll();
    } else if (!m_laneBoxes.empty()) {
        m_laneBoxes.front()->setFocus();
    }
}

QString PredictController::ringQuestion(int step) const {
    if (m_practicing) {  // no window given away: that is part of the question
        return tr("Your turn: %1").arg(QString::fromStdString(questionAt(step)->prompt));
    }
    const teach::Frame& f = m_ring->frames()[std::size_t(step)];
    const auto w = m_ring->window().count();
    // A hit exactly at the window's open end: naming the window would give the answer away
    // (issue 24), so the question names W and t only.
    const bool onTheEdge = std::any_of(f.naive.begin(), f.naive.end(), [&](const teach::Pair& p) {
        return f.windowLow && p.second == *f.windowLow;
    });
    if (*f.windowLow == f.op->second - w) {
        return tr("Your turn: what will getHits(%1) return? It counts the hits of the last "
                  "%2 seconds up to %1.")
            .arg(f.op->second)
            .arg(w);
    }
    if (onTheEdge) {
        return tr("Your turn: what will getHits(%1) return? The newest second is %2, and "
                  "the counter keeps only the last %3 seconds up to it.")
            .arg(f.op->second)
            .arg(*f.head)
            .arg(w);
    }
    return tr("Your turn: what will getHits(%1) return? The window will be %2: the "
              "newest second is %3, so seconds up to %4 are already forgotten.")
        .arg(f.op->second)
        .arg(QString::fromStdString(f.windowText()))
        .arg(*f.head)
        .arg(*f.windowLow);
}

void PredictController::cancel() {
    if (m_pendingStep) {
        m_pendingStep.reset();
        setRowShown(false);
        Q_EMIT questionChanged();
    }
}

void PredictController::setRowShown(bool shown) {
    // Gives its room back while hidden: at 1280x720 the panels above need it.
    QSizePolicy keep = m_row->sizePolicy();
    keep.setRetainSizeWhenHidden(false);
    m_row->setSizePolicy(keep);
    m_row->setVisible(shown);
}

QString PredictController::question() const {
    return awaiting() ? m_questionText : QString();
}

void PredictController::focusAnswer() {
    m_guess->setFocus();
}

void PredictController::submit(Count guess) {
    finish(guess);
}

void PredictController::submitLimiters(const std::vector<bool>& accepts) {
    finishLimiters(accepts);
}

void PredictController::reveal() {
    if (m_limits) {
        finishLimiters(std::nullopt);
    } else {
        finish(std::nullopt);
    }
}

void PredictController::finishLimiters(const std::optional<std::vector<bool>>& accepts) {
    if (!m_pendingStep || !m_limits) {
        return;
    }
    const int step = *m_pendingStep;
    cancel();
    const teach::LimiterQuestion& q = *limiterQuestionAt(step);
    const teach::LimiterVerdict verdict =
        teach::diagnoseLimiters(*m_limits, q, accepts.value_or(std::vector<bool>{}));
    m_verdict = accepts ? (verdict.right ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) +
                              QString::fromStdString(verdict.text)
                        : tr("The answer: %1").arg(QString::fromStdString(verdict.text));
    recordProgress(accepts && verdict.right);
    m_verdictStep = step;
    m_revealed.insert(step);
    Q_EMIT answered(step);
}

void PredictController::finish(std::optional<Count> guess) {
    if (!m_pendingStep || m_limits) {
        return;
    }
    const int step = *m_pendingStep;
    cancel();
    const teach::Question& q = *questionAt(step);
    const QString right = QString::number(q.answer);
    const teach::Verdict verdict = guess ? teach::diagnose(*m_ring, q, *guess) : teach::Verdict{};
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
        showScore(tr("Score: %1"));
        m_verdict += QStringLiteral(" (%1)").arg(QString::fromStdString(m_score.text()));
        if (m_score.asked == int(m_questions.size())) {
            m_verdict += QStringLiteral(" ") + practiceSummary();
        }
    }
    m_verdictStep = step;
    m_revealed.insert(step);
    Q_EMIT answered(step);
}

// Every answer counts for the lesson it was given in, kept while the view lives.
void PredictController::recordProgress(bool right) {
    teach::Score& progress = m_progress[m_lessons.exportName().toStdString()];
    progress.add(teach::Verdict{right, {}, {}});
    if (!m_practicing) {
        m_scoreLabel->setText(tr("This lesson: %1").arg(QString::fromStdString(progress.text())));
    }
}

// `format` with the practice's score for its last %n.
void PredictController::showScore(const QString& format) {
    m_scoreLabel->setText(format.arg(QString::fromStdString(m_score.text())));
}

// The end of a practice: the score and the mistakes made, the most frequent first.
QString PredictController::practiceSummary() const {
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

QString PredictController::questionHtml() const {
    if (!m_pendingStep) {
        return {};
    }
    return QStringLiteral("<b style='color:%1; font-size:large'>%2</b><br>")
        .arg(ts::colors().currentInk.name(), m_questionText.toHtmlEscaped());
}

// Green when right.
QString PredictController::verdictHtml(int step) const {
    if (step != m_verdictStep || m_verdict.isEmpty()) {
        return {};
    }
    const bool good = m_verdict.startsWith(QChar(0x2714));
    return QStringLiteral("<b style='color:%1'>%2</b> ")
        .arg((good ? ts::colors().inWindowEdge : ts::colors().removed).name(),
             m_verdict.toHtmlEscaped());
}

}  // namespace hitcounter::ui
