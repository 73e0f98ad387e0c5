// The precompiled header of tests/ui (tests/ui/CMakeLists.txt): test_pch.h, plus what nearly
// every GUI test includes: Qt Test with its GUI part, the widgets they look into and the
// window's own headers. Every test of the folder links hitcounter::ui, so the macros this
// header sees (QT_WIDGETS_LIB, QT_GUI_LIB) are the same in all of them. Tests still include
// what they use.
#pragma once

#include "tests/test_pch.h"

#include <QtTest/qtest.h>

#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTimer>

#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"
