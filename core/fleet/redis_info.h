// Fields of a Redis INFO reply: "name:value" lines, CRLF or LF, sections ("# Server") and
// blank lines between them. The fleet poll and the fleet simulation's report read it.
//
// Thread-compatible (pure functions). O(reply length).
// Example: infoNumber("# CPU\r\nused_cpu_sys:1.50\r\n", "used_cpu_sys") == 1.5
#pragma once

#include <string>

namespace hitcounter::fleet {

// The value of field `name` (a whole field name, at the start of a line), or "" when absent.
std::string infoField(const std::string& info, const std::string& name);
// The field as a number, or 0 when it is absent or not a number.
double infoNumber(const std::string& info, const std::string& name);

}  // namespace hitcounter::fleet
