#include "app/cli/trace_input.h"

#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "app/cli/cli_options.h"

namespace hitcounter::cli {

bool TraceInput::open() {
    if (m_trace == QLatin1String("-")) {
        m_in = &std::cin;
        return true;
    }
    m_file.open(QFile::encodeName(m_trace).toStdString(), std::ios::binary);
    // A directory opens as a stream on Linux and fails only at the first read.
    const bool isDirectory = QFileInfo(m_trace).isDir();
    if (!m_file || isDirectory) {
        printError(QStringLiteral("cannot open trace '%1': %2")
                       .arg(m_trace, isDirectory ? QStringLiteral("it is a directory")
                                                 : QString::fromLocal8Bit(std::strerror(errno))));
        return false;
    }
    m_in = &m_file;
    return true;
}

std::optional<int> TraceInput::read(bool strict,
                                    const std::function<void(const HitEvent&)>& onRow) {
    TraceReader reader(*m_in);
    TraceRow row;
    for (TraceStatus status; (status = reader.next(row)) != TraceStatus::End;) {
        if (status == TraceStatus::Row) {
            onRow(row.event);
            continue;
        }
        const TraceError& error = reader.error();
        const QString where = QStringLiteral("%1:%2: %3")
                                  .arg(m_trace)
                                  .arg(error.line)
                                  .arg(QString::fromStdString(error.message));
        if (strict || error.fatal) {
            printError(where);
            return kExitBadInput;
        }
        if (reader.progress().badRows <= kReportedBadRows)
            printError(where + QStringLiteral(" (row skipped)"));
    }
    m_progress = reader.progress();
    if (m_in->bad()) {
        printError(QStringLiteral("cannot read trace '%1'").arg(m_trace));
        return kExitFailure;
    }
    if (m_progress.badRows > 0)
        printError(QStringLiteral("%1: skipped %2 bad row(s) of %3 (--strict stops at the first)")
                       .arg(m_trace)
                       .arg(m_progress.badRows)
                       .arg(m_progress.rows + m_progress.badRows));
    return std::nullopt;
}

}  // namespace hitcounter::cli
