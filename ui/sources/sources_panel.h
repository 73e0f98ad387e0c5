// SourcesPanel: the dock on the left: every source kind's controls (kind_controls.h, made by
// the kinds in the kind list's order: simulator, socket listener, replay, follow access log,
// fleet), what runs, and recording.
//
// GUI thread only. The panel holds no source: it forwards the controls' requests (start, stop,
// edit, File > Open) and the recording toggle, and shows the specs the session says
// (showSpec, keepSpec) and the running source's figures (showFigures).
#pragma once

#include <QWidget>
#include <vector>

#include "ui/sources/source_spec.h"

class QCheckBox;
class QLabel;

namespace hitcounter::ui {

class KindControls;
class SourceSpecs;

class SourcesPanel : public QWidget {
    Q_OBJECT
public:
    explicit SourcesPanel(QWidget* parent = nullptr);

    // Shows `spec` in its kind's controls (without emitting requests) and marks what runs.
    void showSpec(const SourceSpec& spec, bool running);
    // Every kind's last spec in its controls (restored settings); none runs.
    void showSpecs(const SourceSpecs& specs);
    // A spec the session changed without a restart (SourceSession::specEdited).
    void keepSpec(const SourceSpec& spec);
    // The running source's figures (RunningSource::figures), under its kind's controls.
    void showFigures(const QString& text);
    void showRecording(const QString& text);
    void setRecordingChecked(bool on);

    // As narrow as its controls allow (the dock takes less of a 1024 px wide window); rows
    // with a slider or a file name get the width the dock is given.
    QSize sizeHint() const override;

Q_SIGNALS:
    void startRequested(const hitcounter::ui::SourceSpec& spec);
    void stopRequested();
    void edited(const hitcounter::ui::SourceSpec& spec);
    void openTraceRequested();
    void recordToggled(bool on);

private:
    std::vector<KindControls*> m_kinds;  // in the kind list's order
    KindControls* m_running = nullptr;   // the running kind's controls
    QCheckBox* m_record;
    QLabel* m_recordStatus;
    QLabel* m_runningLabel;
    bool m_updating = false;
};

}  // namespace hitcounter::ui
