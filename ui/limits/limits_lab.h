// LimitsLab: the Rate limits tab's lab, which runs on the counting thread (EngineWorker's
// LimitsOptions): applying the tab's options, and the note under the tab that says what that
// did to the traffic already counted.
//
// GUI thread only. apply() restarts the lab: a replay is re-run from its start to where it
// stands (a seek, so the lab equals a run of the whole trace so far), a live source restarts
// it from now (earlier traffic is not replayed into it); bad options (std::invalid_argument
// from the worker) leave the lab as it was and are emitted as errorOccurred ("Rate limits:
// ...") with false returned. The view's controls ask for it (LimitsView::optionsRequested).
#pragma once

#include <QObject>
#include <QString>

#include "core/engine/engine_worker.h"

namespace hitcounter::ui {

class LimitsView;
class SourceSession;

class LimitsLab : public QObject {
    Q_OBJECT

public:
    LimitsLab(LimitsView& view, EngineWorker& worker, SourceSession& session,
              QObject* parent = nullptr);

    bool apply(const LimitsOptions& options);
    LimitsOptions options() const { return m_worker.limitsOptions(); }
    // The tab is shown: a lab that is off starts with the tab's settings.
    void opened();

Q_SIGNALS:
    void errorOccurred(const QString& message);

private:
    LimitsView& m_view;
    EngineWorker& m_worker;
    SourceSession& m_session;
};

}  // namespace hitcounter::ui
