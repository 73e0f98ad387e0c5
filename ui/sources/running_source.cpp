#include "ui/sources/running_source.h"

namespace hitcounter::ui {

RunningSource::RunningSource(std::unique_ptr<Source> source, TimeAxisMode timeAxis,
                             std::optional<int> logUtcOffset)
    : m_source(std::move(source)), m_timeAxis(timeAxis), m_logUtcOffset(logUtcOffset) {}

RunningSource::~RunningSource() = default;

bool RunningSource::apply(const SourceSpec& /*spec*/) {
    return false;
}

QString RunningSource::statusText() const {
    return QString::fromStdString(m_source->describe());
}

}  // namespace hitcounter::ui
