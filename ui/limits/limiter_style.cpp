#include "ui/limits/limiter_style.h"

#include "ui/common/theme.h"

#include <QObject>

namespace hitcounter::ui {

QString limiterName(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QColor limiterColor(const std::string& name) {
    if (name == "fixed")
        return QColor("#d93025");
    if (name == "log")
        return QColor("#1a73e8");
    if (name == "counter")
        return QColor("#188038");
    if (name == "bucket")
        return QColor("#9334e6");
    return neutralColor();
}

QString limiterTitle(const std::string& name) {
    if (name == "fixed")
        return QObject::tr("fixed window");
    if (name == "log")
        return QObject::tr("sliding log");
    if (name == "counter")
        return QObject::tr("sliding counter");
    if (name == "bucket")
        return QObject::tr("token bucket");
    return QString::fromStdString(name);
}

}  // namespace hitcounter::ui
