// Writes gzip files as log rotators do, for tests that read them back (tst_hit_file,
// tst_input_set).
#pragma once

#include <QString>
#include <QTest>
#include <fstream>
#include <string>
#include <vector>

#include <zlib.h>

namespace hitcounter::testing {

// One gzip member per part, concatenated (as `cat a.gz b.gz` or some log rotators make).
inline void writeGzip(const QString& path, const std::vector<std::string>& parts) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    for (const auto& part : parts) {
        z_stream z{};
        QCOMPARE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
        std::string buffer(deflateBound(&z, uLong(part.size())) + 64, '\0');
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
        z.avail_in = uInt(part.size());
        z.next_out = reinterpret_cast<Bytef*>(buffer.data());
        z.avail_out = uInt(buffer.size());
        QCOMPARE(deflate(&z, Z_FINISH), Z_STREAM_END);
        out.write(buffer.data(), std::streamsize(buffer.size() - z.avail_out));
        deflateEnd(&z);
    }
}

}  // namespace hitcounter::testing
