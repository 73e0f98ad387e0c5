#include "ui/sources/kinds/file_source_spec.h"

#include <QFileInfo>
#include <QObject>
#include <QSettings>
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

void FileSourceSpec::saveFile(QSettings& settings) const {
    settings.setValue(QStringLiteral("file"),
                      file.isEmpty() ? file : QFileInfo(file).absoluteFilePath());
    settings.setValue(QStringLiteral("key"), key);
    settings.setValue(QStringLiteral("logFormat"), logFormat);
}

void FileSourceSpec::loadFile(SettingsReader& settings) {
    file = settings.text(QStringLiteral("file"));
    key = settings.oneOf(QStringLiteral("key"), key, accessLogKeyNames());
    logFormat = settings.text(QStringLiteral("logFormat"));
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
    return options;
}

}  // namespace hitcounter::ui
