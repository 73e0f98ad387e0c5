// How the Rate limits tab names and colours each rate limiter (core/limiters/limiter_factory.h
// names them "fixed", "log", "counter", "bucket"): the same colour and title in the controls,
// the charts and the tables.
//
// GUI thread only (translated titles).
//
// Example: limiterTitle("log") == "sliding log"; an unknown name is its own title, in grey.
#pragma once

#include <QColor>
#include <QString>
#include <string>
#include <string_view>

namespace hitcounter::ui {

QColor limiterColor(const std::string& name);
QString limiterTitle(const std::string& name);
// A name from the factory's list as a QString.
QString limiterName(std::string_view name);

}  // namespace hitcounter::ui
