#include "core/fleet/redis_info.h"

#include <stdexcept>

namespace hitcounter::fleet {

std::string infoField(const std::string& info, const std::string& name) {
    const std::string needle = "\n" + name + ":";
    std::size_t at = ("\n" + info).find(needle);
    if (at == std::string::npos)
        return {};
    at += needle.size() - 1;  // in `info`, past "name:"
    const std::size_t end = info.find_first_of("\r\n", at);
    return info.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

double infoNumber(const std::string& info, const std::string& name) {
    try {
        return std::stod(infoField(info, name));
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace hitcounter::fleet
