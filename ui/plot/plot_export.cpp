#include "ui/plot/plot_export.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QStandardPaths>
#include "ui/common/save_file.h"
#include "ui/plot/data_export.h"
#include "ui/plot/qcp.h"

namespace hitcounter::ui {

namespace {

bool saveImage(const QString& path, const QImage& image, QString* error) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG")) {
        *error = QObject::tr("%1: cannot encode the image as PNG").arg(path);
        return false;
    }
    return saveFile(path, png, error);
}

}  // namespace

bool exportPlotPng(QCustomPlot& plot, const QString& path, QString* error) {
    const int width = std::max(800, plot.width());
    const int height = std::max(500, plot.height());
    // toPixmap renders at the requested size without touching the on-screen plot.
    return saveImage(path, plot.toPixmap(width, height).toImage(), error);
}

void installExportMenu(QCustomPlot& plot) {
    plot.setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(&plot, &QWidget::customContextMenuRequested, &plot, [&plot](QPoint pos) {
        QMenu menu(&plot);
        QAction* exportAction = menu.addAction(QObject::tr("Export as PNG…"));
        QAction* exportMore = menu.addAction(QObject::tr("Export data (CSV), PNG or PDF…"));
        QAction* chosen = menu.exec(plot.mapToGlobal(pos));
        if (chosen == exportMore) {
            exportInteractive(plot, plot.window());
            return;
        }
        if (chosen != exportAction) {
            return;
        }
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        const QString path = QFileDialog::getSaveFileName(
            &plot, QObject::tr("Export plot"),
            QDir(dir).filePath(plot.objectName() + QStringLiteral(".png")),
            QObject::tr("PNG images (*.png)"));
        QString error;
        if (!path.isEmpty() && !exportPlotPng(plot, path, &error)) {
            QMessageBox::warning(&plot, QObject::tr("Export failed"), error);
        }
    });
}

QByteArray windowCsv(const EngineSnapshot& snapshot, const std::deque<SecondRecord>& history) {
    QByteArray csv("second,hits,window_count\n");
    for (const SecondRecord& r : history) {
        if (r.second > snapshot.head - snapshot.windowSeconds && r.second <= snapshot.head) {
            csv += QByteArray::number(qlonglong(r.second)) + ',' +
                   QByteArray::number(qulonglong(r.hits)) + ',' +
                   QByteArray::number(qulonglong(r.counts.empty() ? 0 : r.counts[0])) + '\n';
        }
    }
    return csv;
}

QString newSnapshotDirectory(const QString& base, const QDateTime& now) {
    const QString stem = QDir(base).filePath(QStringLiteral("hitcounter-") +
                                             now.toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString directory = stem;
    for (int n = 2; QFileInfo::exists(directory); ++n) {
        directory = stem + QStringLiteral("-%1").arg(n);
    }
    return directory;
}

bool writeSnapshot(const QString& directory, QWidget& window, const EngineSnapshot& snapshot,
                   const std::deque<SecondRecord>& history, const QVariantMap& settingsUsed,
                   QString* error) {
    QVariantMap settings = settingsUsed;
    settings.insert(QStringLiteral("head"), qlonglong(snapshot.head));
    settings.insert(QStringLiteral("window_seconds"), qlonglong(snapshot.windowSeconds));
    settings.insert(QStringLiteral("window_count"), qulonglong(snapshot.windowCount));
    settings.insert(QStringLiteral("total_hits"), qulonglong(snapshot.totalHits));
    const QByteArray csv = windowCsv(snapshot, history);
    if (!QDir().mkpath(directory)) {
        *error = QObject::tr("%1: cannot create the folder").arg(directory);
        return false;
    }
    const QDir dir(directory);
    const QByteArray json =
        QJsonDocument(QJsonObject::fromVariantMap(settings)).toJson(QJsonDocument::Indented);
    return saveImage(dir.filePath(QStringLiteral("window.png")), window.grab().toImage(), error) &&
           saveFile(dir.filePath(QStringLiteral("window.csv")), csv, error) &&
           saveFile(dir.filePath(QStringLiteral("settings.json")), json, error);
}

}  // namespace hitcounter::ui
