// The precompiled header of every test executable (hitcounter_add_test): the standard and
// Qt Core headers most tests include, parsed once per folder instead of once per test. It
// names no macro that differs between the tests of a folder (QT_WIDGETS_LIB, HITCOUNTER_*),
// so one compiled copy serves them all. Tests still include what they use.
#pragma once

#include <QtTest/qtestcase.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QList>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <variant>
#include <vector>
