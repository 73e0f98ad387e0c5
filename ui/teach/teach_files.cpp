#include "ui/teach/teach_files.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QSaveFile>
#include <QStyle>
#include <QTextDocument>

#include "core/teach/lesson_file.h"
#include "core/teach/lessons.h"
#include "core/teach/teach_file.h"
#include "ui/teach/handout.h"
#include "ui/teach/lesson_panel.h"
#include "ui/teach/teach_style.h"
#include "ui/teach/teach_view.h"

namespace hitcounter::ui {

namespace {

// Exports are for slides and paper: under a dark application palette they are drawn in the
// light one. For the export's duration the application gets the light palette and no style
// sheet (the dark theme's one styles the check boxes), which restyles the view; both are put
// back after it. The export runs without returning to the event loop, so the screen never shows
// the light look. Nested scopes (every step's frame in "Save all steps") do nothing.
class LightForExport {
public:
    explicit LightForExport(QWidget& view) : m_view(view), m_swapped(teachstyle::colors().dark) {
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

TeachFiles::TeachFiles(TeachView& view) : QObject(&view), m_view(view) {}

bool TeachFiles::exportCurrentFrame(const QString& path, QString* error) {
    const LightForExport light(m_view);
    const QImage image = m_view.renderImage();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        if (error) {
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        }
        return false;
    }
    return true;
}

int TeachFiles::exportAllFrames(const QString& directory, QString* error) {
    if (!QDir().mkpath(directory)) {
        if (error) {
            *error = tr("Could not create the folder %1").arg(directory);
        }
        return -1;
    }
    const LightForExport light(m_view);
    const int original = m_view.currentStep();
    const QString prefix = m_view.lessonPanel()->exportName();
    int written = 0;
    for (int step = 0; step <= m_view.lastStep(); ++step) {
        m_view.showStep(step);
        const QString name =
            QStringLiteral("%1-step-%2.png").arg(prefix).arg(step, 3, 10, QLatin1Char('0'));
        if (!exportCurrentFrame(QDir(directory).filePath(name), error)) {
            m_view.showStep(original);
            return -1;
        }
        ++written;
    }
    m_view.showStep(original);
    return written;
}

// The handout as a document (issue 24, handout.h), in the light palette of the exports.
std::unique_ptr<QTextDocument> TeachFiles::handoutDocument() {
    const teach::Lesson& lesson =
        teach::lessons().at(std::size_t(m_view.lessonPanel()->chosenLesson()));
    const bool own = m_view.lessonPanel()->lessonIndex() < 0;
    const HandoutLesson about{
        own ? tr("Your own operations") : QString::fromStdString(lesson.title),
        own ? tr("Work out each step of these operations by hand, then check the answers on "
                 "the last page.")
            : QString::fromStdString(lesson.goal),
        m_view.lessonPanel()->exportName()};
    return m_view.limiterTimeline() ? limiterHandout(*m_view.limiterTimeline(), about)
                                    : ringHandout(m_view.timeline(), about);
}

QImage TeachFiles::handoutPage(int page, QSize size) {
    const LightForExport light(m_view);
    const auto document = handoutDocument();
    return handoutPageImage(*document, page, size);
}

int TeachFiles::exportHandoutPdf(const QString& path, QString* error) {
    const LightForExport light(m_view);
    const auto document = handoutDocument();
    return writeHandoutPdf(*document, path,
                           tr("hitcounter lesson: %1").arg(m_view.lessonPanel()->exportName()),
                           error);
}

void TeachFiles::chooseHandoutFile() {
    m_view.setPlaying(false);
    const QString path = QFileDialog::getSaveFileName(
        &m_view, tr("Save the lesson as a PDF handout"),
        m_view.lessonPanel()->exportName() + QStringLiteral(".pdf"), tr("PDF (*.pdf)"));
    QString error;
    if (!path.isEmpty() && exportHandoutPdf(path, &error) < 0) {
        QMessageBox::warning(&m_view, tr("Handout PDF"), error);
    }
}

void TeachFiles::chooseFrameFile() {
    m_view.setPlaying(false);
    const QString suggestion = QStringLiteral("%1-step-%2.png")
                                   .arg(m_view.lessonPanel()->exportName())
                                   .arg(m_view.currentStep(), 3, 10, QLatin1Char('0'));
    const QString path = QFileDialog::getSaveFileName(&m_view, tr("Save this frame as PNG"),
                                                      suggestion, tr("PNG images (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportCurrentFrame(path, &error)) {
        QMessageBox::warning(&m_view, tr("Save frame"), error);
    }
}

void TeachFiles::chooseFramesDirectory() {
    m_view.setPlaying(false);
    const QString directory =
        QFileDialog::getExistingDirectory(&m_view, tr("Save every step as numbered PNGs into"));
    if (directory.isEmpty()) {
        return;
    }
    QString error;
    const int written = exportAllFrames(directory, &error);
    if (written < 0) {
        QMessageBox::warning(&m_view, tr("Save all steps"), error);
    }
}

bool TeachFiles::saveLessonFile(const QString& path, QString* error) {
    QSaveFile out(path);
    const QByteArray bytes = QByteArray::fromStdString(teach::writeLessonFile(m_view.lessonFile()));
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
        if (error) {
            *error = tr("Could not write %1: %2").arg(path, out.errorString());
        }
        return false;
    }
    return true;
}

bool TeachFiles::loadLessonFile(const QString& path, QString* error) {
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
    if (const auto* e = std::get_if<TextProblem>(&read)) {
        if (error) {
            *error = tr("%1: %2").arg(path, QString::fromStdString(e->describe()));
        }
        return false;
    }
    m_view.openLessonFile(std::get<teach::LessonFile>(read));
    return true;
}

void TeachFiles::chooseLessonFileToSave() {
    m_view.setPlaying(false);
    const QString path =
        QFileDialog::getSaveFileName(&m_view, tr("Save this lesson"),
                                     m_view.lessonPanel()->exportName() + QStringLiteral(".lesson"),
                                     tr("hitcounter lessons (*.lesson);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !saveLessonFile(path, &error)) {
        QMessageBox::warning(&m_view, tr("Save lesson"), error);
    }
}

void TeachFiles::chooseLessonFileToOpen() {
    m_view.setPlaying(false);
    const QString path =
        QFileDialog::getOpenFileName(&m_view, tr("Open a lesson"), QString(),
                                     tr("hitcounter lessons (*.lesson);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !loadLessonFile(path, &error)) {
        QMessageBox::warning(&m_view, tr("Open lesson"), error);
    }
}

}  // namespace hitcounter::ui
