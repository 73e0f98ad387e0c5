// TeachFiles: what the teaching view writes and reads as files, and the dialogs that ask for
// them: a step as a PNG, every step as numbered PNGs, the PDF handout, and lesson files.
//
// GUI thread only. Owned by its TeachView (TeachView::files()); it uses only the view's public
// face (steps, timelines, the lesson panel, lessonFile() and openLessonFile()).
//
// Exports are always drawn in the light teaching palette, for slides and paper, without the
// screen ever showing it. Files are written atomically (QSaveFile): a failed write leaves the
// old file. Every function that writes or reads returns failure with *error naming the file
// (and, for a lesson file, the line); the choose* functions stop playing, ask for a path and
// show that error in a message box.
//
// Names: exportAllFrames() writes "<name>-step-000.png", "<name>-step-001.png", ... into the
// folder (LessonPanel::exportName(): "-w5" added at another W), animations shown finished;
// the dialogs suggest "<name>-step-<step>.png", "<name>.pdf" and "<name>.lesson".
#pragma once

#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>
#include <memory>

class QTextDocument;

namespace hitcounter::ui {

class TeachView;

class TeachFiles : public QObject {
    Q_OBJECT

public:
    explicit TeachFiles(TeachView& view);

    bool exportCurrentFrame(const QString& path, QString* error);
    // Returns the number of files written, or -1 with *error set. Shows the step it started on
    // again afterwards.
    int exportAllFrames(const QString& directory, QString* error);
    // A handout (handout.h): the goal, the ring drawn, the steps in a table, questions, and the
    // answers on a page of their own, in print sizes. Returns the number of pages, or -1.
    int exportHandoutPdf(const QString& path, QString* error);
    // Handout page `page` (0-based) drawn on an image of `size`, for previews.
    QImage handoutPage(int page, QSize size);

    // Lesson files (core/teach/lesson_file.h) of what the view shows (TeachView::lessonFile()).
    bool saveLessonFile(const QString& path, QString* error);
    bool loadLessonFile(const QString& path, QString* error);

    void chooseFrameFile();
    void chooseFramesDirectory();
    void chooseHandoutFile();
    void chooseLessonFileToSave();
    void chooseLessonFileToOpen();

private:
    std::unique_ptr<QTextDocument> handoutDocument();

    TeachView& m_view;
};

}  // namespace hitcounter::ui
