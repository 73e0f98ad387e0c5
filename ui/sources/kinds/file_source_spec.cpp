#include "ui/sources/kinds/file_source_spec.h"

#include <QFileInfo>
#include <QObject>
#include <QSettings>
#include <memory>
#include <stdexcept>

#include "ui/common/settings_reader.h"

namespace hitcounter::ui {

QStringList accessLogKeyNames() {
    QStringList names;
    for (AccessLogKey key : {AccessLogKey::Path, AccessLogKey::PathQuery, AccessLogKey::Status,
                             AccessLogKey::Method, AccessLogKey::Vhost, AccessLogKey::Client}) {
        const std::string_view name = accessLogKeyName(key);
        names << QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    return names;
}

QString accessLogKeyTip() {
    return QObject::tr(
        "What an access-log line counts as: its path without the query (default), path with "
        "query, status, method, virtual host or client address. Trace CSV files keep their "
        "own keys.");
}

QString filterTip() {
    return QObject::tr(
        "Count only the lines this expression accepts, e.g. status=5xx, status=404 and "
        "path~'^/api/' (a regular expression), not method=GET. Fields: status, method, path, "
        "vhost, client. Empty: every line. See docs/filters.md.");
}

QStringList FileSourceSpec::files() const {
    return QStringList{file} + moreFiles;
}

void FileSourceSpec::saveFile(QSettings& settings) const {
    settings.setValue(QStringLiteral("file"),
                      file.isEmpty() ? file : QFileInfo(file).absoluteFilePath());
    QStringList absolute;
    for (const QString& more : moreFiles) {
        absolute << QFileInfo(more).absoluteFilePath();
    }
    settings.setValue(QStringLiteral("moreFiles"), absolute);
    settings.setValue(QStringLiteral("key"), key);
    settings.setValue(QStringLiteral("logFormat"), logFormat);
    settings.setValue(QStringLiteral("filter"), filter);
}

void FileSourceSpec::loadFile(SettingsReader& settings, const QStringList& keys) {
    file = settings.text(QStringLiteral("file"));
    moreFiles = settings.texts(QStringLiteral("moreFiles"));
    key = settings.oneOf(QStringLiteral("key"), key, keys);
    logFormat = settings.text(QStringLiteral("logFormat"));
    filter = settings.text(QStringLiteral("filter"));
}

HitFileOptions FileSourceSpec::hitFileOptions() const {
    HitFileOptions options;
    const auto chosen = accessLogKeyFromName(key.toStdString());
    if (!chosen) {
        throw std::invalid_argument("unknown key '" + key.toStdString() + "' (choose " +
                                    accessLogKeyNames().join(QStringLiteral(", ")).toStdString() +
                                    ")");
    }
    options.key = *chosen;
    options.logFormat = logFormat.toStdString();
    if (!filter.trimmed().isEmpty()) {
        auto parsed = RecordFilter::parse(filter.toStdString());
        if (const auto* problem = std::get_if<TextProblem>(&parsed)) {
            throw std::invalid_argument("filter '" + filter.toStdString() +
                                        "': " + describeFilterProblem(*problem));
        }
        options.filter =
            std::make_shared<const RecordFilter>(std::move(std::get<RecordFilter>(parsed)));
    }
    return options;
}

}  // namespace hitcounter::ui
