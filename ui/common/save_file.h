// saveFile(): writes a file whole or not at all, for the exports (plots, CSV, snapshots).
//
// GUI thread or any thread (no shared state). Goes through QSaveFile, which writes beside the
// target and renames into place on commit: a failed write leaves the old file (or none).
// Example: QString error;  if (!saveFile("a.csv", csv, &error)) show(error);
//          error: "a.csv: cannot write: Permission denied"
#pragma once

#include <QByteArray>
#include <QString>

namespace hitcounter::ui {

// True if `bytes` are in `path`; else false and *error = "PATH: cannot write: REASON".
bool saveFile(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace hitcounter::ui
