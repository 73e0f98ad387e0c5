#include "app/cli/trace_input.h"

#include "app/cli/cli_options.h"
#include "app/cli/hit_file_options.h"

#include <QFile>
#include <stdexcept>

namespace hitcounter::cli {

TraceInput::~TraceInput() = default;

bool TraceInput::open() {
    if (m_files.contains(QStringLiteral("-"))) {
        if (m_files.size() > 1) {
            printError(
                QStringLiteral("- (standard input) cannot be read with other files; give "
                               "it alone"));
            return false;
        }
        auto stdinFile = openHitFile(m_files.first(), m_options);
        if (!stdinFile)
            return false;
        m_reader = std::make_unique<InputSet>(std::move(stdinFile), "-", m_keyBySource);
        return true;
    }
    std::vector<std::string> paths;
    for (const QString& file : m_files)
        paths.push_back(QFile::encodeName(file).toStdString());
    try {
        m_reader = std::make_unique<InputSet>(groupInputSources(paths), m_options, m_keyBySource);
    } catch (const HitFileError& e) {
        printError(QString::fromStdString(e.what()));
        return false;
    } catch (const std::invalid_argument& e) {
        printError(QString::fromStdString(e.what()));
        return false;
    }
    return true;
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
                                  .arg(QFile::decodeName(m_reader->errorFile().c_str()))
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
    for (const InputSet::Truncation& cut : m_reader->truncations()) {
        m_truncated = true;
        printError(QStringLiteral("%1: %2%3")
                       .arg(QFile::decodeName(cut.file.c_str()),
                            QString::fromStdString(truncationText(cut.line, cut.rows)),
                            strict ? QStringLiteral(" (--strict: stopped)") : QString()));
    }
    if (m_truncated && strict)
        return kExitBadInput;
    if (m_progress.badRows > 0)
        printError(QStringLiteral("%1: skipped %2 bad row(s) of %3 (--strict stops at the first)")
                       .arg(name())
                       .arg(m_progress.badRows)
                       .arg(m_progress.rows + m_progress.badRows));
    return std::nullopt;
}

}  // namespace hitcounter::cli
