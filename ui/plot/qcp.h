// Include QCustomPlot through this header, never <qcustomplot.h> directly: the project builds
// with QT_NO_KEYWORDS, and QCustomPlot 2.1's header still says `signals` and `foreach`.
#pragma once

#include <QObject>
#include <QtGlobal>

#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
