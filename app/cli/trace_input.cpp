#include "app/cli/trace_input.h"

#include "app/cli/cli_options.h"
#include "app/cli/hit_file_options.h"

namespace hitcounter::cli {

bool TraceInput::open() {
    m_reader = openHitFile(m_trace, m_options);
    return m_reader != nullptr;
}

std::optional<int> TraceInput::read(bool strict,
                                    const std::function<void(const HitEvent&)>& onRow) {
    TraceRow row;
    for (TraceStatus status; (status = m_reader->next(row)) != TraceStatus::End;) {
        if (status == TraceStatus::Row) {
            onRow(row.event);
            continue;
        }
        const TraceError& error = m_reader->error();
        const QString where = QStringLiteral("%1:%2: %3")
                                  .arg(m_trace)
                                  .arg(error.line)
                                  .arg(QString::fromStdString(error.message));
        if (strict || error.fatal) {
            printError(where);
            return kExitBadInput;
        }
        if (m_reader->progress().badRows <= kReportedBadRows)
            printError(where + QStringLiteral(" (row skipped)"));
    }
    m_progress = m_reader->progress();
    if (const auto cut = m_reader->truncatedAtLine()) {
        m_truncated = true;
        printError(QStringLiteral("%1: %2%3")
                       .arg(m_trace, QString::fromStdString(truncationText(*cut, m_progress.rows)),
                            strict ? QStringLiteral(" (--strict: stopped)") : QString()));
        if (strict)
            return kExitBadInput;
    }
    if (m_progress.badRows > 0)
        printError(QStringLiteral("%1: skipped %2 bad row(s) of %3 (--strict stops at the first)")
                       .arg(m_trace)
                       .arg(m_progress.badRows)
                       .arg(m_progress.rows + m_progress.badRows));
    return std::nullopt;
}

}  // namespace hitcounter::cli
