// hitcounter: the monitor GUI. Parses the command line, builds the main window, starts the
// source asked for (the simulator by default) and, for --screenshot or --bench-frames,
// quits on its own.
#include <QApplication>
#include <QSettings>
#include <QTimer>
#include <cstdio>

#include "app/gui/gui_options.h"
#include "ui/main_window.h"

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("hitcounter"));
    QApplication::setApplicationName(QStringLiteral("hitcounter"));
    QApplication::setApplicationVersion(QStringLiteral(HITCOUNTER_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/hitcounter/hitcounter.png")));

    QString error;
    const auto options = hitcounter::app::parseGuiOptions(QApplication::arguments(), &error);
    if (!options) {
        if (error.isEmpty()) {
            return 0;
        }
        std::fprintf(stderr, "hitcounter: %s\n", qPrintable(error));
        return 2;
    }

    hitcounter::ui::MainWindow window;
    const bool scripted = !options->screenshotFile.isEmpty() || options->benchFrames > 0;
    if (!scripted) {
        QSettings settings;
        window.restoreSettings(settings);
    }
    window.show();

    if (options->benchFrames > 0) {
        QObject::connect(&window, &hitcounter::ui::MainWindow::benchFinished, &app,
                         &QApplication::quit);
        window.startBench(options->benchFrames);
    }
    if (!options->screenshotFile.isEmpty()) {
        const QString file = options->screenshotFile;
        QTimer::singleShot(int(options->screenshotAfterSeconds * 1000), &window, [&window, file] {
            window.renderNow();
            if (!window.grab().save(file, "PNG")) {
                std::fprintf(stderr, "hitcounter: %s: cannot write the screenshot\n",
                             qPrintable(file));
                QApplication::exit(1);
                return;
            }
            QApplication::exit(0);
        });
    }
    return app.exec();
}
