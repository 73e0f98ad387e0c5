// HITCOUNTER_TEST_MAIN, HITCOUNTER_TEST_GUILESS_MAIN, HITCOUNTER_TEST_APPLESS_MAIN: how a
// tst_<unit>.cpp ends. Each does what Qt's QTEST_MAIN, QTEST_GUILESS_MAIN and
// QTEST_APPLESS_MAIN do (the same application object, initMain(), source path and qExec), but
// instead of defining main() it registers the test under its CTest name, so that every test of
// a folder links into one executable (tests/CMakeLists.txt, hitcounter_add_test): one link per
// folder instead of one per test.
//
// Running one test: `build/ci/tests/core/tst_engine [Qt Test options]` (a link to the folder's
// executable, which picks the test by the name it was started as) or
// `build/ci/tests/core/tests_core tst_engine [Qt Test options]`. Either way the test sees
// argv[0] == "tst_engine", as it did as an executable of its own.
//
// HITCOUNTER_TEST_NAME is the test's CTest name, defined by hitcounter_add_test.
#pragma once

#include <QtTest/qtest.h>

#include "tests/test_registry.h"

// The body of Qt's QTEST_MAIN_WRAPPER (qtest.h), registered instead of named main().
#define HITCOUNTER_TEST_WRAPPER(TestObject, ...)                                    \
    namespace {                                                                     \
    int hitcounterTestMain(int argc, char* argv[]) {                                \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();          \
        __VA_ARGS__                                                                 \
        TestObject tc;                                                              \
        QTEST_SET_MAIN_SOURCE_PATH                                                  \
        return QTest::qExec(&tc, argc, argv);                                       \
    }                                                                               \
    [[maybe_unused]] const bool hitcounterTestRegistered =                          \
        ::hitcounter::test::registerTest(HITCOUNTER_TEST_NAME, hitcounterTestMain); \
    }

// QApplication (widgets), QGuiApplication or QCoreApplication, as QTEST_MAIN picks them.
#define HITCOUNTER_TEST_MAIN(TestObject) HITCOUNTER_TEST_WRAPPER(TestObject, QTEST_MAIN_SETUP())
// QCoreApplication.
#define HITCOUNTER_TEST_GUILESS_MAIN(TestObject) \
    HITCOUNTER_TEST_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
// No application object.
#define HITCOUNTER_TEST_APPLESS_MAIN(TestObject) HITCOUNTER_TEST_WRAPPER(TestObject)
