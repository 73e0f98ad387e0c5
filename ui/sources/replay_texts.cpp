#include "ui/sources/replay_texts.h"

#include <QFileInfo>
#include <QObject>

#include "core/io/hit_file.h"
#include "ui/plot/display_zone.h"

namespace hitcounter::ui {

QString moreFilesText(qsizetype more) {
    return more == 0   ? QString()
           : more == 1 ? QObject::tr("and 1 more file")
                       : QObject::tr("and %1 more files").arg(more);
}

QString replayFilesName(const QStringList& files) {
    const QString first = QFileInfo(files.front()).fileName();
    return files.size() == 1 ? first : first + QLatin1Char(' ') + moreFilesText(files.size() - 1);
}

QString replayTruncationText(const ReplayProgress& progress) {
    if (!progress.truncatedAtLine) {
        return {};
    }
    return QStringLiteral("%1: %2").arg(
        QString::fromStdString(progress.truncatedFile),
        QString::fromStdString(
            truncationText(*progress.truncatedAtLine, progress.truncatedFileRows)));
}

QString emptyReplayText(const ReplayProgress& progress, const QString& file) {
    if (progress.state != ReplayState::Ended || progress.rows > 0) {
        return {};
    }
    if (progress.truncatedAtLine) {
        return QObject::tr("%1: no hits to replay").arg(replayTruncationText(progress));
    }
    if (progress.filtered > 0 && progress.badRows == 0) {
        return QObject::tr("%1: no hits to replay: the filter refuses all %L2 lines")
            .arg(file)
            .arg(progress.filtered);
    }
    return progress.badRows == 0
               ? QObject::tr("%1: the trace is empty: no hits to replay").arg(file)
               : QObject::tr("%1: no hits to replay: all %L2 rows are bad; the first: %3")
                     .arg(file)
                     .arg(progress.badRows)
                     .arg(QString::fromStdString(progress.firstBadRow));
}

QString replayLoadedText(const ReplayProgress& progress, const QString& file, bool clockTimes) {
    if (!progress.first || !progress.last) {
        return {};
    }
    const DisplayZone& zone = shownZone();
    const auto time = [&](Timestamp t) {
        return clockTimes ? zone.format(t) : QObject::tr("%L1 s").arg(t);
    };
    return QObject::tr("Loaded %1: %L2 rows%3, trace time %4 to %5%6")
        .arg(QFileInfo(file).fileName())
        .arg(progress.rows)
        .arg(progress.filtered > 0
                 ? QObject::tr(" (%L1 lines refused by the filter)").arg(progress.filtered)
                 : QString())
        .arg(time(*progress.first), time(*progress.last),
             clockTimes ? QLatin1Char(' ') + zone.offsetName(*progress.last) : QString());
}

}  // namespace hitcounter::ui
