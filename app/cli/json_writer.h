// JsonWriter: one JSON document written field by field, indented as QJsonDocument::Indented
// writes it (four spaces a level), with every count an exact unsigned 64-bit integer: a count
// of 2^64 - 1 is written 18446744073709551615, never through a double. Strings go through
// jsonString() (core/net/text_escape.h).
//
// Not thread-safe; one owner. The caller writes a well-formed document: key() only inside an
// object, each begin matched by its end.
//
// Example:
//     JsonWriter out;
//     out.beginObject().key("rows").count(3).key("trace").string("t.csv").endObject();
//     out.take() == "{\n    \"rows\": 3,\n    \"trace\": \"t.csv\"\n}\n"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hitcounter::cli {

class JsonWriter {
public:
    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }
    // The name of the next value in the object being written.
    JsonWriter& key(std::string_view name);

    JsonWriter& count(std::uint64_t value);
    JsonWriter& integer(std::int64_t value);
    // The shortest text that reads back as `value`; null if it is not finite.
    JsonWriter& real(double value);
    JsonWriter& boolean(bool value);
    JsonWriter& string(std::string_view text);
    JsonWriter& null();

    // The document, with a final line break.
    std::string take();

private:
    JsonWriter& open(char bracket);
    JsonWriter& close(char bracket);
    JsonWriter& value(std::string_view text);
    void startValue();
    void newLine();

    std::string m_out;
    int m_depth = 0;
    bool m_empty = true;      // nothing written yet at this level
    bool m_afterKey = false;  // the next value belongs to the key just written
};

}  // namespace hitcounter::cli
