#include "ui/teach/handout.h"

#include <QAbstractTextDocumentLayout>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QPicture>
#include <QSaveFile>
#include <QTextDocument>
#include <QTextObjectInterface>

#include "core/teach/limiter_questions.h"
#include "core/teach/practice.h"
#include "ui/teach/ring_view.h"

namespace hitcounter::ui {

namespace {

// A4 at 96 units per inch, 15 mm margins.
constexpr qreal kUnitsPerMm = 96.0 / 25.4;
constexpr QSizeF kPage(210 * kUnitsPerMm, 297 * kUnitsPerMm);
constexpr qreal kMargin = 15 * kUnitsPerMm;
constexpr int kRingFigure = QTextFormat::UserObject + 1;
constexpr qreal kFigureSide = 380;

QString esc(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString opText(const teach::Operation& op, bool requests) {
    if (requests) {
        return op.kind == teach::Operation::Kind::GetHits
                   ? QObject::tr("no request: the clock moves to %1").arg(op.second)
               : op.repeat > 1 ? QObject::tr("%1 requests at %2").arg(op.repeat).arg(op.second)
                               : QObject::tr("a request at %1").arg(op.second);
    }
    const QString name = op.kind == teach::Operation::Kind::Hit ? QStringLiteral("hit(%1)")
                                                                : QStringLiteral("getHits(%1)");
    return name.arg(op.second) +
           (op.repeat > 1 ? QStringLiteral(" ×%1").arg(op.repeat) : QString());
}

// The rings of the document's figures, drawn by the teaching view's own RingView into the
// page as vectors (recorded in a QPicture, then replayed): shapes and text, in the light
// palette of the export. The figure's number is a property of its object character.
class RingFigures : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    static constexpr int kIndex = QTextFormat::UserProperty + 1;

    RingFigures(std::int64_t window, QObject* parent) : QObject(parent), m_window(window) {}
    int add(teach::Frame frame) {
        m_frames.push_back(std::move(frame));
        return int(m_frames.size()) - 1;
    }

    QSizeF intrinsicSize(QTextDocument*, int, const QTextFormat&) override {
        return {kFigureSide, kFigureSide};
    }
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int,
                    const QTextFormat& format) override {
        const auto index = std::size_t(format.intProperty(kIndex));
        if (index >= m_frames.size()) {
            return;
        }
        RingView view;
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(rect.size().toSize());
        view.setFrame(m_frames[index], m_window);
        QPicture picture;
        view.render(&picture);
        painter->drawPicture(rect.topLeft(), picture);
    }

private:
    std::int64_t m_window;
    std::vector<teach::Frame> m_frames;
};

QString styleSheet() {
    return QStringLiteral(
        "body { font-size: 11pt; color: #1d1d1b; }"
        "h1 { font-size: 18pt; margin-bottom: 2px; }"
        "h2 { font-size: 14pt; margin-top: 14px; margin-bottom: 4px; }"
        "p.meta { font-size: 10pt; color: #55534e; }"
        "table { font-size: 10pt; border-collapse: collapse; }"
        "th { background: #ebe8e0; text-align: left; }"
        "td.q { color: #55534e; }"
        "p.answer-line { color: #8a877f; }");
}

std::unique_ptr<QTextDocument> newDocument() {
    auto doc = std::make_unique<QTextDocument>();
    doc->setDefaultStyleSheet(styleSheet());
    QFont body;
    body.setPointSizeF(11);
    doc->setDefaultFont(body);
    doc->setPageSize(QSizeF(kPage.width() - 2 * kMargin, kPage.height() - 2 * kMargin));
    doc->setDocumentMargin(0);
    return doc;
}

// A ring figure: an object character the layout asks RingFigures to draw.
void appendFigure(QTextDocument& doc, teach::Frame frame, std::int64_t window,
                  const QString& caption) {
    auto* figures = doc.findChild<RingFigures*>();
    if (!figures) {
        figures = new RingFigures(window, &doc);
        doc.documentLayout()->registerHandler(kRingFigure, figures);
    }
    const int index = figures->add(std::move(frame));
    QTextCursor cursor(&doc);
    cursor.movePosition(QTextCursor::End);
    QTextBlockFormat centred;
    centred.setAlignment(Qt::AlignHCenter);
    centred.setNonBreakableLines(true);  // a figure moves to the next page whole
    cursor.insertBlock(centred);
    QTextCharFormat object;
    object.setObjectType(kRingFigure);
    object.setProperty(RingFigures::kIndex, index);
    cursor.insertText(QString(QChar::ObjectReplacementCharacter), object);
    cursor.insertBlock(centred);
    QTextCharFormat small;
    small.setFontPointSize(10);
    small.setFontItalic(true);
    cursor.insertText(caption, small);
    // What follows starts a plain block again (left-aligned, normal text).
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
}

// In blocks of its own: insertHtml would join its first paragraph to the block before.
void appendHtml(QTextDocument& doc, const QString& html) {
    QTextCursor cursor(&doc);
    cursor.movePosition(QTextCursor::End);
    if (!doc.isEmpty()) {
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    }
    cursor.insertHtml(html);
}

// The answers start on a page of their own.
void appendAnswersHeading(QTextDocument& doc) {
    QTextCursor cursor(&doc);
    cursor.movePosition(QTextCursor::End);
    QTextBlockFormat breakBefore;
    breakBefore.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    cursor.insertBlock(breakBefore);
    QTextCharFormat heading;
    heading.setFontPointSize(18);
    heading.setFontWeight(QFont::Bold);
    cursor.insertText(QObject::tr("Answers"), heading);
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
}

QString header(const HandoutLesson& lesson, const QString& meta) {
    return QStringLiteral("<h1>%1</h1><p class='meta'>%2</p><h2>%3</h2><p>%4</p>")
        .arg(lesson.title.toHtmlEscaped(), meta, QObject::tr("Goal"), lesson.goal.toHtmlEscaped());
}

QString limiterTitle(const std::string& name) {
    return QString::fromStdString(teach::limiterTitle(name));
}

// What an answer is made of, before the step's narration: the query's window, the deque's
// pairs, the vector's calls.
QString answerDetail(teach::Question::Kind kind, const teach::Frame& f) {
    switch (kind) {
        case teach::Question::Kind::GetHits:
            return QObject::tr(", window %1").arg(esc(f.windowText()));
        case teach::Question::Kind::DequePairs: {
            QStringList pairs;
            for (const teach::Pair& p : f.deque) {
                pairs << QStringLiteral("(%1, %2)").arg(p.second).arg(qulonglong(p.count));
            }
            return QObject::tr(", the deque: %1").arg(pairs.join(QStringLiteral(" ")));
        }
        case teach::Question::Kind::VectorCalls:
            return QObject::tr(", the vector keeps every accepted call and only those");
        case teach::Question::Kind::SlotCount:
            break;
    }
    return {};
}

}  // namespace

std::unique_ptr<QTextDocument> ringHandout(const teach::Timeline& timeline,
                                           const HandoutLesson& lesson) {
    auto doc = newDocument();
    const auto& frames = timeline.frames();
    const std::int64_t w = timeline.window().count();
    const std::vector<teach::Question> questions = teach::questions(timeline);
    appendHtml(*doc, header(lesson, QObject::tr("W = %1 seconds: getHits(t) counts the hits in "
                                                "(t − W, t], a ring of %1 slots, slot t mod W")
                                        .arg(w)));
    // The ring just before the first question: the state it starts from, no answer on it.
    const std::size_t shown = questions.empty() ? frames.size() - 1 : questions.front().step - 1;
    appendFigure(*doc, frames[shown], w,
                 shown == 0 ? QObject::tr("The ring at the start: %1 empty slots").arg(w)
                            : QObject::tr("The ring after step %1, %2")
                                  .arg(shown)
                                  .arg(opText(*frames[shown].op, false)));
    QString table =
        QStringLiteral(
            "<h2>%1</h2><table border='1' cellpadding='4' width='100%'>"
            "<tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
            .arg(QObject::tr("The steps"), QObject::tr("Step"), QObject::tr("Operation"),
                 QObject::tr("Slot t mod W"), QObject::tr("Question"));
    auto questionAt = [&](std::size_t step) -> int {
        for (std::size_t q = 0; q < questions.size(); ++q) {
            if (questions[q].step == step) {
                return int(q) + 1;
            }
        }
        return 0;
    };
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const teach::Frame& f = frames[k];
        const int q = questionAt(k);
        table += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td class='q'>%4</td></tr>")
                     .arg(k)
                     .arg(opText(*f.op, false).toHtmlEscaped())
                     .arg(f.op->second % w)
                     .arg(q > 0 ? QObject::tr("Q%1").arg(q) : QString());
    }
    table += QStringLiteral("</table>");
    appendHtml(*doc, table);
    QString asked = QStringLiteral("<h2>%1</h2>").arg(QObject::tr("Questions"));
    for (std::size_t q = 0; q < questions.size(); ++q) {
        // On paper every question shows at once: no question names an earlier count.
        const teach::Frame& f = frames[questions[q].step];
        QString prompt = esc(questions[q].prompt);
        switch (questions[q].kind) {
            case teach::Question::Kind::SlotCount:
                prompt = QObject::tr("After %1, what count does slot %2 hold?")
                             .arg(opText(*f.op, false))
                             .arg(*f.slot);
                break;
            case teach::Question::Kind::DequePairs:
                prompt =
                    QObject::tr("After %1, how many (second, count) pairs does the deque hold?")
                        .arg(opText(*f.op, false));
                break;
            case teach::Question::Kind::VectorCalls:
                prompt = QObject::tr("After %1, how many calls does the naive vector hold?")
                             .arg(opText(*f.op, false));
                break;
            case teach::Question::Kind::GetHits:
                break;
        }
        asked += QStringLiteral("<p><b>Q%1</b> (step %2). %3</p><p class='answer-line'>%4</p>")
                     .arg(q + 1)
                     .arg(questions[q].step)
                     .arg(prompt)
                     .arg(QObject::tr("Your answer: ____________"));
    }
    appendHtml(*doc, asked);

    appendAnswersHeading(*doc);
    QString answers;
    for (std::size_t q = 0; q < questions.size(); ++q) {
        const teach::Frame& f = frames[questions[q].step];
        answers += QStringLiteral("<p><b>Q%1</b> %2: <b>%3</b>%4. %5</p>")
                       .arg(q + 1)
                       .arg(opText(*f.op, false).toHtmlEscaped())
                       .arg(qulonglong(questions[q].answer))
                       .arg(answerDetail(questions[q].kind, f))
                       .arg(esc(f.narration));
    }
    QString after = QStringLiteral(
                        "<h2>%1</h2><table border='1' cellpadding='4' width='100%'>"
                        "<tr><th>%2</th><th>%3</th><th>%4</th></tr>")
                        .arg(QObject::tr("Every step"), QObject::tr("Step"),
                             QObject::tr("Operation"), QObject::tr("After it"));
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const teach::Frame& f = frames[k];
        QString state;
        if (f.answer) {
            state = QObject::tr("%1 in %2").arg(qulonglong(*f.answer)).arg(esc(f.windowText()));
        } else if (f.dropped) {
            state = QObject::tr("dropped: too late");
        } else {
            const teach::RingSlot& s = f.ring[*f.slot];
            state = QObject::tr("slot %1 = (%2, %3)%4")
                        .arg(*f.slot)
                        .arg(s.second)
                        .arg(qulonglong(s.count))
                        .arg(f.resetFrom ? QObject::tr(", reset from (%1, %2)")
                                               .arg(f.resetFrom->second)
                                               .arg(qulonglong(f.resetFrom->count))
                                         : QString());
        }
        after += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                     .arg(k)
                     .arg(opText(*f.op, false).toHtmlEscaped(), state);
    }
    after += QStringLiteral("</table>");
    appendHtml(*doc, answers + after);
    appendFigure(*doc, frames.back(), w,
                 QObject::tr("The ring after the last step, %1")
                     .arg(frames.back().op ? opText(*frames.back().op, false) : QString()));
    return doc;
}

std::unique_ptr<QTextDocument> limiterHandout(const teach::LimiterTimeline& timeline,
                                              const HandoutLesson& lesson) {
    auto doc = newDocument();
    const auto& frames = timeline.frames();
    const std::int64_t w = timeline.limit().per.count();
    QStringList names;
    for (const std::string& name : timeline.names()) {
        names << limiterTitle(name);
    }
    appendHtml(*doc, header(lesson, QObject::tr("L = %1 requests per W = %2 seconds, one key; "
                                                "the limiters: %3")
                                        .arg(timeline.limit().limit)
                                        .arg(w)
                                        .arg(names.join(QStringLiteral(", ")))));
    QString table = QStringLiteral(
                        "<h2>%1</h2><table border='1' cellpadding='4' width='100%'>"
                        "<tr><th>%2</th><th>%3</th><th>%4</th></tr>")
                        .arg(QObject::tr("The requests"), QObject::tr("Step"),
                             QObject::tr("Request"), QObject::tr("Questions"));
    QString asked = QStringLiteral("<h2>%1</h2>").arg(QObject::tr("Questions"));
    int question = 0;
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const teach::LimiterFrame& f = frames[k];
        QStringList qs;
        if (f.op->kind == teach::Operation::Kind::Hit) {
            for (const QString& name : names) {
                ++question;
                qs << QObject::tr("Q%1").arg(question);
                asked += QStringLiteral("<p><b>Q%1</b> (step %2). %3</p>")
                             .arg(question)
                             .arg(k)
                             .arg(f.op->repeat > 1
                                      ? QObject::tr("How many of the %1 requests at %2 does the "
                                                    "%3 accept? ______")
                                            .arg(f.op->repeat)
                                            .arg(f.op->second)
                                            .arg(name)
                                      : QObject::tr("Does the %1 accept the request at %2? "
                                                    "yes / no")
                                            .arg(name)
                                            .arg(f.op->second));
            }
        }
        table += QStringLiteral("<tr><td>%1</td><td>%2</td><td class='q'>%3</td></tr>")
                     .arg(k)
                     .arg(opText(*f.op, true).toHtmlEscaped(), qs.join(QStringLiteral(", ")));
    }
    table += QStringLiteral("</table>");
    appendHtml(*doc, table + asked);

    appendAnswersHeading(*doc);
    QString answers = QStringLiteral(
                          "<table border='1' cellpadding='4' width='100%'><tr><th>%1</th>"
                          "<th>%2</th>")
                          .arg(QObject::tr("Step"), QObject::tr("Request"));
    for (const QString& name : names) {
        answers += QStringLiteral("<th>%1</th>").arg(name.toHtmlEscaped());
    }
    answers += QStringLiteral("</tr>");
    const auto bucket = std::find(timeline.names().begin(), timeline.names().end(), "bucket");
    QString tokens;
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const teach::LimiterFrame& f = frames[k];
        answers += QStringLiteral("<tr><td>%1</td><td>%2</td>")
                       .arg(k)
                       .arg(opText(*f.op, true).toHtmlEscaped());
        for (const teach::LimiterLane& lane : f.lanes) {
            const QString decision = !lane.decision                 ? QStringLiteral("—")
                                     : lane.decision->rejected == 0 ? QObject::tr("accepted")
                                     : lane.decision->accepted == 0
                                         ? QObject::tr("rejected")
                                         : QObject::tr("%1 accepted, %2 rejected")
                                               .arg(lane.decision->accepted)
                                               .arg(lane.decision->rejected);
            answers += QStringLiteral("<td>%1</td>").arg(decision);
        }
        answers += QStringLiteral("</tr>");
        if (bucket != timeline.names().end() && f.op->kind == teach::Operation::Kind::Hit) {
            const teach::LimiterLane& lane =
                f.lanes[std::size_t(bucket - timeline.names().begin())];
            tokens += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                          .arg(k)
                          .arg(opText(*f.op, true).toHtmlEscaped())
                          .arg(QString::fromStdString(teach::tokensText(lane.tokenUnits, w)));
        }
    }
    answers += QStringLiteral("</table>");
    if (!tokens.isEmpty()) {
        answers += QStringLiteral(
                       "<h2>%1</h2><table border='1' cellpadding='4'><tr><th>%2</th>"
                       "<th>%3</th><th>%4</th></tr>%5</table>")
                       .arg(QObject::tr("The token bucket: tokens left after each request"),
                            QObject::tr("Step"), QObject::tr("Request"), QObject::tr("Tokens left"),
                            tokens);
    }
    QString reasons = QStringLiteral("<h2>%1</h2>").arg(QObject::tr("Why"));
    for (std::size_t k = 1; k < frames.size(); ++k) {
        reasons += QStringLiteral("<p><b>%1</b>. %2</p>").arg(k).arg(esc(frames[k].narration));
    }
    appendHtml(*doc, answers + reasons);
    return doc;
}

namespace {

// Lays the document's pages one under the other on `painter`, page `page` at the origin.
void paintPage(QTextDocument& document, QPainter& painter, int page) {
    const QSizeF body = document.pageSize();
    painter.save();
    painter.translate(kMargin, kMargin - page * body.height());
    QAbstractTextDocumentLayout::PaintContext context;
    // Less a unit at the bottom: what starts the next page is not drawn on this one too.
    context.clip = QRectF(QPointF(0, page * body.height()), body - QSizeF(0, 1));
    context.palette.setColor(QPalette::Text, QColor(0x1d, 0x1d, 0x1b));
    painter.setClipRect(context.clip);
    document.documentLayout()->draw(&painter, context);
    painter.restore();
}

}  // namespace

int writeHandoutPdf(QTextDocument& document, const QString& path, const QString& title,
                    QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) {
            *error = QObject::tr("Could not write %1: %2").arg(path, file.errorString());
        }
        return -1;
    }
    const int pages = document.pageCount();
    {
        QPdfWriter pdf(&file);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageOrientation(QPageLayout::Portrait);
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(96);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("hitcounter"));
        QPainter painter(&pdf);
        for (int page = 0; page < pages; ++page) {
            if (page > 0) {
                pdf.newPage();
            }
            paintPage(document, painter, page);
        }
    }
    if (!file.commit()) {
        if (error) {
            *error = QObject::tr("Could not write %1: %2").arg(path, file.errorString());
        }
        return -1;
    }
    return pages;
}

QImage handoutPageImage(QTextDocument& document, int page, QSize size) {
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(size.width() / kPage.width(), size.height() / kPage.height());
    paintPage(document, painter, page);
    return image;
}

}  // namespace hitcounter::ui

#include "handout.moc"
