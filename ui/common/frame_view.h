// FrameView: what every view of the engine's frames offers the main window. The main window
// keeps a list of them and loops (docs/architecture.md, "The GUI"): a new view is one class
// implementing this plus one line in the list MainWindow gives its ViewFanOut.
//
// GUI thread only. showFrame() gets the frame the worker produced and the history delta built
// from it (history_update.h), both valid for the call only. followTimeAxis() tells a view with
// a time axis whether it shows clock or trace time and, for a looping replay, the trace's wrap
// (a view without a time axis keeps the default, which does nothing). plots() are the view's
// plots, replotted together by MainWindow::renderNow() and themed with their crosshairs.
// saveSettings()/restoreSettings() keep the view's own choices between runs under its own keys
// (a bad stored value is reset and named by SettingsReader); a view without any keeps the
// defaults.
//
// Example: ViewFanOut::show() (ui/window/view_fan_out.h) builds one FrameContext and calls
// showFrame() on each view.
#pragma once

#include <QList>
#include <optional>

#include "core/engine/engine_frame.h"
#include "ui/common/history_update.h"

class QCustomPlot;
class QSettings;

namespace hitcounter::ui {

class SettingsReader;
struct Theme;

struct FrameContext {
    const HistoryUpdate& update;
    const EngineFrame& frame;
    TimeAxisMode mode;
};

class FrameView {
public:
    virtual ~FrameView() = default;
    virtual void showFrame(const FrameContext& context) = 0;
    virtual void applyTheme(const Theme& theme) = 0;
    virtual void followTimeAxis(TimeAxisMode /*mode*/, std::optional<TraceWrap> /*wrap*/) {}
    virtual QList<QCustomPlot*> plots() = 0;
    virtual void saveSettings(QSettings& /*settings*/) const {}
    virtual void restoreSettings(SettingsReader& /*settings*/) {}
};

}  // namespace hitcounter::ui
