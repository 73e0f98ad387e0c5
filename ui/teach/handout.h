// Handout: a lesson as a printable document, not screen dumps (issue 24): the goal, the ring
// drawn cleanly (vector, the teaching view's own drawing), the steps in a table, questions to
// answer on paper, and the answers on a page of their own; all in print sizes (11 pt text, 10
// pt tables). A rate-limit lesson gets its requests instead, the limiters' decisions asked and
// answered, and the token bucket's tokens left after each request.
//
// GUI thread only (it draws through a RingView). The document is built from the lesson's
// immutable timeline; the exports draw in the light palette (TeachView's LightForExport).
//
// Units: the document is laid out at 96 units per inch, the paint device's resolution
// (writeHandoutPdf sets the PDF writer to it), so the widgets' pixel sizes and the fonts' points
// agree; the PDF keeps text and drawings as vectors.
#pragma once

#include <QString>
#include <chrono>
#include <memory>

#include "core/teach/limiter_timeline.h"
#include "core/teach/timeline.h"

class QImage;
class QSize;
class QTextDocument;

namespace hitcounter::ui {

struct HandoutLesson {
    QString title;  // "Off by one: a hit exactly W ago is out"
    QString goal;
    QString name;  // the export name, "boundary" or "boundary-w9"
};

// The document of a ring lesson, or of a rate-limit lesson.
std::unique_ptr<QTextDocument> ringHandout(const teach::Timeline& timeline,
                                           const HandoutLesson& lesson);
std::unique_ptr<QTextDocument> limiterHandout(const teach::LimiterTimeline& timeline,
                                              const HandoutLesson& lesson);

// A4 portrait, 15 mm margins. Returns the number of pages, or -1 with *error set; written
// atomically (QSaveFile).
int writeHandoutPdf(QTextDocument& document, const QString& path, const QString& title,
                    QString* error);
// Page `page` (0-based) as the PDF shows it, on a white image of `size` (previews, tests).
QImage handoutPageImage(QTextDocument& document, int page, QSize size);

}  // namespace hitcounter::ui
