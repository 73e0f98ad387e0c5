// FileSourceSpec: what the kinds that read files of recorded hits share (a replay, followed
// access logs): the file and any more files read with it, the access-log key, the nginx
// log_format and the filter expression, stored under the keys "file", "moreFiles", "key",
// "logFormat" and "filter", and how they become HitFileOptions. A kind's spec derives it
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

// The tooltip of a box taking a filter expression.
QString filterTip();

// The access-log keys a person can choose (AccessLogKey names), "path" first, and what they
// mean (the tooltip of a box offering them).
QStringList accessLogKeyNames();
QString accessLogKeyTip();

struct FileSourceSpec {
    QString file;
    // Read with `file` as one source (a replay: core/io/input_set.h; follow: FollowSet); empty:
    // `file` alone.
    QStringList moreFiles;
    QString key = QStringLiteral("path");  // access logs: path, path+query, status, method, ...
    QString logFormat;                     // an nginx log_format string; empty: detected
    QString filter;  // a filter expression (docs/filters.md); empty or blank: every line

    // `file`, then moreFiles.
    QStringList files() const;
    // The files are stored as absolute paths (the next start may be in another directory).
    void saveFile(QSettings& settings) const;
    // Reads the five keys of the current group into this spec (a key not among `keys` is reset
    // and named; a bad filter is kept, and refused when the source starts).
    void loadFile(SettingsReader& settings, const QStringList& keys = accessLogKeyNames());
    // Throws std::invalid_argument naming the keys to choose from for an unknown key, or the
    // column and the problem of a filter that does not parse ("filter 'status=5x': column 8:
    // expected a status ...").
    HitFileOptions hitFileOptions() const;
    friend bool operator==(const FileSourceSpec&, const FileSourceSpec&) = default;
};

}  // namespace hitcounter::ui
