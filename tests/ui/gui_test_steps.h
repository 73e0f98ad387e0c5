// The GUI tests' shared steps: frames of a real MainWindow until a condition holds, and the
// rows of the docs' screenshot tests.
#pragma once

#include <QSize>
#include <QString>
#include <QTest>

#include "ui/window/main_window.h"

namespace hitcounter::testing {

// Runs w.frame() until `done()` holds (true) or about 10 s pass (false).
template <typename Done>
bool framesUntil(ui::MainWindow& w, Done done) {
    for (int i = 0; i < 1000; ++i) {
        w.frame();
        if (done()) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
}

// The columns "size" and "theme" and one row per docs screenshot: 1280x720 and 1920x1080,
// light and dark.
inline void addScreenshotRows() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("theme");
    for (const QSize& size : {QSize(1280, 720), QSize(1920, 1080)}) {
        for (const QString& theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
            QTest::addRow("%dx%d-%s", size.width(), size.height(), qPrintable(theme))
                << size << theme;
        }
    }
}

}  // namespace hitcounter::testing
