// FileSourceSpec: what the kinds that read a file of recorded hits share (a replay, a followed
// access log): the file, the access-log key and the nginx log_format, stored under the keys
// "file", "key" and "logFormat", and how they become HitFileOptions. A kind's spec derives it
// (sourceFile(), source_spec.h, finds the file of any such kind).
//
// Plain value, GUI thread.
#pragma once

#include <QString>
#include <QStringList>

#include "core/io/hit_file.h"

class QSettings;

namespace hitcounter::ui {

class SettingsReader;

// The access-log keys a person can choose (AccessLogKey names), "path" first, and what they
// mean (the tooltip of a box offering them).
QStringList accessLogKeyNames();
QString accessLogKeyTip();

struct FileSourceSpec {
    QString file;
    QString key = QStringLiteral("path");  // access logs: path, path+query, status, method, ...
    QString logFormat;                     // an nginx log_format string; empty: detected

    // The file is stored as an absolute path (the next start may be in another directory).
    void saveFile(QSettings& settings) const;
    // Reads the three keys of the current group into this spec (a bad key is reset and named).
    void loadFile(SettingsReader& settings);
    // Throws std::invalid_argument naming the keys to choose from for an unknown key.
    HitFileOptions hitFileOptions() const;
    friend bool operator==(const FileSourceSpec&, const FileSourceSpec&) = default;
};

}  // namespace hitcounter::ui
