#include "ui/teach/lesson_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QTextBlock>
#include <QVBoxLayout>

#include "core/teach/lessons.h"
#include "core/teach/timeline.h"
#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;

LessonPanel::LessonPanel(QWidget* parent)
    : QWidget(parent),
      m_lessons(new QComboBox(this)),
      m_goal(new QLabel(this)),
      m_editor(new QPlainTextEdit(this)),
      m_error(new QLabel(this)),
      m_window(new QSpinBox(this)),
      m_predict(new QCheckBox(tr("Predict mode: ask me before each answer"), this)),
      m_seed(new QSpinBox(this)),
      m_level(new QComboBox(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(6);

    auto* heading = new QLabel(tr("Lesson"), this);
    heading->setFont(ts::font(10, true));
    layout->addWidget(heading);
    for (const auto& lesson : teach::lessons()) {
        m_lessons->addItem(QString::fromStdString(lesson.title));
    }
    m_lessons->addItem(tr("Your own operations"));
    layout->addWidget(m_lessons);

    m_goal->setWordWrap(true);
    m_goal->setTextFormat(Qt::RichText);
    m_goal->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_goal->setFont(ts::font(9.5));
    m_goal->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The goal scrolls when it is longer than the room it gets (a long goal at 1280x720), so
    // no sentence is ever cut off; it asks for the height of its whole text.
    m_goalScroll = new QScrollArea(this);
    m_goalScroll->setWidget(m_goal);
    m_goalScroll->setWidgetResizable(true);
    m_goalScroll->setFrameShape(QFrame::NoFrame);
    m_goalScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_goalScroll->setMinimumHeight(QFontMetrics(m_goal->font()).lineSpacing() * 5);
    layout->addWidget(m_goalScroll);

    auto* windowRow = new QHBoxLayout;
    auto* windowLabel = new QLabel(tr("Window W"), this);
    m_window->setRange(int(teach::kMinTeachWindow.count()), int(teach::kMaxTeachWindow.count()));
    m_window->setSuffix(tr(" s"));
    m_window->setToolTip(tr("Slots in the ring, from 5 to 300. Changing it reruns the steps."));
    auto* real = new QPushButton(tr("Real: 300"), this);
    real->setToolTip(tr("Switch to the real window of 300 seconds"));
    windowRow->addWidget(windowLabel);
    windowRow->addWidget(m_window, 1);
    windowRow->addWidget(real);
    layout->addLayout(windowRow);

    auto* opsHeading = new QLabel(tr("Operations (edit, then Run)"), this);
    opsHeading->setFont(ts::font(10, true));
    layout->addWidget(opsHeading);
    m_editor->setFont(ts::mono(10));
    m_editor->setPlaceholderText(
        tr("hit 5\nhit 7 x40\ngetHits 301\n\nor the LeetCode "
           "input:\n[\"HitCounter\",\"hit\"]\n[[],[1]]"));
    m_editor->setTabChangesFocus(true);
    layout->addWidget(m_editor, 1);

    m_error->setWordWrap(true);
    restyle();
    m_error->hide();
    layout->addWidget(m_error);

    auto* run = new QPushButton(tr("Run  (Ctrl+Return)"), this);
    layout->addWidget(run);
    layout->addWidget(m_predict);
    auto* practiceRow = new QHBoxLayout;
    auto* practice = new QPushButton(tr("New practice"), this);
    practice->setToolTip(
        tr("Random operations from this seed (the same seed gives the same ones): predict every "
           "getHits and the slots the hits land on, with a score"));
    m_seed->setObjectName(QStringLiteral("seed"));
    m_window->setObjectName(QStringLiteral("window"));
    m_seed->setRange(1, 999'999);
    m_seed->setPrefix(tr("seed "));
    m_seed->setValue(1);
    m_level->setObjectName(QStringLiteral("level"));
    m_level->setToolTip(tr(
        "The practice's difficulty: 1 warm-up (in-order hits, a gap longer than W), 2 the boundary "
        "(+ a getHits exactly W after a hit), 3 out of order (+ late and too-late hits, a "
        "getHits into the past)"));
    for (const auto level : {teach::PracticeLevel::WarmUp, teach::PracticeLevel::Boundary,
                             teach::PracticeLevel::OutOfOrder}) {
        // "level 3" fits the panel's row at 1024x768; the item's tooltip names the level.
        m_level->addItem(tr("level %1").arg(int(level)), int(level));
        m_level->setItemData(m_level->count() - 1,
                             QString::fromUtf8(teach::levelName(level).data(),
                                               qsizetype(teach::levelName(level).size())),
                             Qt::ToolTipRole);
    }
    m_level->setCurrentIndex(m_level->count() - 1);
    practiceRow->addWidget(practice, 1);
    practiceRow->addWidget(m_level);
    practiceRow->addWidget(m_seed);
    layout->addLayout(practiceRow);
    auto* fileRow = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open lesson…"), this);
    auto* save = new QPushButton(tr("Save lesson…"), this);
    open->setToolTip(tr("Open a saved lesson file: operations, W, step and your answers"));
    save->setToolTip(tr("Save the operations, W, the step and your answers as a lesson file"));
    fileRow->addWidget(open);
    fileRow->addWidget(save);
    layout->addLayout(fileRow);
    connect(open, &QPushButton::clicked, this, [this] { Q_EMIT openFileRequested(); });
    connect(save, &QPushButton::clicked, this, [this] { Q_EMIT saveFileRequested(); });
    connect(practice, &QPushButton::clicked, this, [this] {
        Q_EMIT practiceRequested(std::uint64_t(m_seed->value()),
                                 teach::PracticeLevel(m_level->currentData().toInt()));
    });

    connect(m_lessons, &QComboBox::activated, this, [this](int index) {
        if (index < int(teach::lessons().size())) {
            chooseLesson(index);
        } else {
            if (!m_edited && !m_ownText.isEmpty()) {
                setOperationsText(m_ownText);
                requestRun();
            }
            showCustomGoal();
            m_editor->setFocus();
        }
    });
    connect(run, &QPushButton::clicked, this, &LessonPanel::requestRun);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_editor);
    shortcut->setContext(Qt::WidgetShortcut);
    connect(shortcut, &QShortcut::activated, this, &LessonPanel::requestRun);
    connect(real, &QPushButton::clicked, this, [this] { m_window->setValue(300); });
    connect(m_window, &QSpinBox::valueChanged, this, &LessonPanel::requestRun);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_edited && m_editor->document()->isModified()) {
            m_edited = true;
            m_lessons->setCurrentIndex(m_lessons->count() - 1);
            showCustomGoal();
        }
        if (m_edited) {
            m_ownText = m_editor->toPlainText();
        }
        // The LeetCode input is the problem's own: it comes with its window of 300 seconds.
        const bool leetCode = m_editor->toPlainText().trimmed().startsWith(QLatin1Char('['));
        if (leetCode && !m_wasLeetCode) {
            setWindow(teach::kMaxTeachWindow);
        }
        m_wasLeetCode = leetCode;
    });
}

void LessonPanel::chooseLesson(int index) {
    const auto& lesson = teach::lessons().at(std::size_t(index));
    m_chosen = index;
    m_lessons->setCurrentIndex(index);
    setWindow(lesson.window);
    showText(QString::fromStdString(lesson.operations));
    refreshGoal();
    requestRun();
}

int LessonPanel::lessonIndex() const {
    return m_edited ? -1 : m_lessons->currentIndex();
}

QString LessonPanel::lessonId() const {
    const int index = lessonIndex();
    if (index < 0 || index >= int(teach::lessons().size())) {
        return QStringLiteral("custom");
    }
    return QString::fromStdString(teach::lessons()[std::size_t(index)].id);
}

QString LessonPanel::exportName() const {
    const int index = lessonIndex();
    if (index >= 0 && index < int(teach::lessons().size()) &&
        teach::lessons()[std::size_t(index)].window != window()) {
        return QStringLiteral("%1-w%2").arg(lessonId()).arg(window().count());
    }
    return lessonId();
}

QString LessonPanel::goalText() const {
    return m_goal->text();
}

void LessonPanel::refreshGoal() {
    const int index = lessonIndex();
    if (index < 0 || index >= int(teach::lessons().size())) {
        return;
    }
    const auto& lesson = teach::lessons()[std::size_t(index)];
    QString text = QString::fromStdString(lesson.goal).toHtmlEscaped();
    if (lesson.window != window()) {
        text = tr("<b>This lesson was written for W = %1; it now runs with W = %2, so the numbers "
                  "in this text (windows, slots, answers) are for W = %1. The steps on the right "
                  "are computed for W = %2.</b><br>")
                   .arg(lesson.window.count())
                   .arg(window().count()) +
               text;
    }
    m_goal->setText(text);
    fitGoal();
}

QString LessonPanel::operationsText() const {
    return m_editor->toPlainText();
}

void LessonPanel::setOperationsText(const QString& text) {
    showText(text);
    m_ownText = text;
    m_edited = true;
    m_lessons->setCurrentIndex(m_lessons->count() - 1);
    showCustomGoal();
}

void LessonPanel::fitGoal() {
    // The height the whole text needs at the panel's width (it has a fixed width).
    const int width =
        std::max(100, m_goalScroll->viewport()->width() > 120 ? m_goalScroll->viewport()->width()
                                                              : this->width() - 16);
    m_goalScroll->setMaximumHeight(m_goal->heightForWidth(width) + 4);
    m_goalScroll->setMinimumHeight(std::min(
        m_goalScroll->maximumHeight(), QFontMetrics(m_goal->font()).lineSpacing() * m_goalLines));
}

void LessonPanel::setGoalLines(int lines) {
    m_goalLines = lines;
    fitGoal();
}

void LessonPanel::showCustomGoal() {
    m_goal->setText(
        tr("Your own operations, one per line: \"hit 5\", \"hit 7 x40\" (forty hits "
           "at second 7), \"getHits 301\", or the LeetCode input (two JSON arrays). "
           "Press Run to step through them."));
    fitGoal();
}

void LessonPanel::showText(const QString& text) {
    {
        const QSignalBlocker blocker(m_editor);  // a lesson's own text is not an edit
        m_editor->setPlainText(text);
    }
    m_editor->document()->setModified(false);
    m_edited = false;
    m_wasLeetCode = text.trimmed().startsWith(QLatin1Char('['));
}

std::chrono::seconds LessonPanel::window() const {
    return std::chrono::seconds{m_window->value()};
}

void LessonPanel::setWindow(std::chrono::seconds window) {
    {
        const QSignalBlocker blocker(m_window);
        m_window->setValue(int(window.count()));
    }
    refreshGoal();
}

void LessonPanel::requestRun() {
    Q_EMIT runRequested(m_editor->toPlainText(), window());
}

void LessonPanel::showError(const TextProblem& error) {
    m_shownError = error;
    m_error->setText(tr("Line %1, column %2: %3 (the steps on the right are unchanged)")
                         .arg(error.line)
                         .arg(error.column)
                         .arg(QString::fromStdString(error.message)));
    m_error->show();
    const QTextBlock block = m_editor->document()->findBlockByNumber(error.line - 1);
    if (block.isValid()) {
        QTextCursor cursor(block);
        cursor.movePosition(
            QTextCursor::Right, QTextCursor::MoveAnchor,
            static_cast<int>(std::min<std::int64_t>(error.column - 1, block.length() - 1)));
        m_editor->setTextCursor(cursor);
        m_editor->ensureCursorVisible();
    }
    refreshSelections();
}

void LessonPanel::clearError() {
    m_shownError.reset();
    m_error->hide();
    m_error->clear();
    refreshSelections();
}

void LessonPanel::restyle() {
    m_error->setStyleSheet(
        QStringLiteral("color: %1; font-weight: bold;").arg(ts::colors().removed.name()));
    refreshSelections();
}

QString LessonPanel::errorText() const {
    return m_shownError ? m_error->text() : QString();
}

void LessonPanel::setCurrentLine(int line) {
    m_currentLine = line;
    refreshSelections();
}

void LessonPanel::refreshSelections() {
    QList<QTextEdit::ExtraSelection> selections;
    QTextDocument* doc = m_editor->document();
    if (m_currentLine > 0 && !m_shownError) {
        const QTextBlock block = doc->findBlockByNumber(m_currentLine - 1);
        if (block.isValid()) {
            QTextEdit::ExtraSelection current;
            current.format.setBackground(ts::colors().currentFill);
            current.format.setForeground(ts::colors().ink);
            current.format.setProperty(QTextFormat::FullWidthSelection, true);
            current.cursor = QTextCursor(block);
            selections.append(current);
        }
    }
    if (m_shownError) {
        const QTextBlock block = doc->findBlockByNumber(m_shownError->line - 1);
        if (block.isValid()) {
            QTextEdit::ExtraSelection line;
            line.format.setBackground(ts::colors().removedFill);
            line.format.setProperty(QTextFormat::FullWidthSelection, true);
            line.cursor = QTextCursor(block);
            selections.append(line);
            // Underline the token at the error column (or the place where one was expected).
            QTextCursor token(block);
            const int start = static_cast<int>(
                std::min<std::int64_t>(m_shownError->column - 1, block.length() - 1));
            token.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, start);
            const QString text = block.text();
            int end = start;
            while (end < text.size() && !text.at(end).isSpace() && text.at(end) != QLatin1Char(';'))
                ++end;
            token.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor,
                               std::max(1, end - start));
            QTextEdit::ExtraSelection mark;
            mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            mark.format.setUnderlineColor(ts::colors().removed);
            mark.format.setForeground(ts::colors().removed);
            mark.cursor = token;
            selections.append(mark);
        }
    }
    m_editor->setExtraSelections(selections);
}

}  // namespace hitcounter::ui
