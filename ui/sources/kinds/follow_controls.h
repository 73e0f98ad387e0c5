// FollowControls: the follow kind's group in the sources dock: the log file (typed or chosen),
// its access-log key and filter, whether to read the lines already there, Start/Stop following, and
// under them the running follower's figures.
//
// GUI thread only.
#pragma once

#include "ui/sources/kind_controls.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace hitcounter::ui {

class FilterEdit;

class FollowControls final : public ControlsFor<FollowSpec> {
public:
    FollowControls();

    void showFigures(const QString& text) override;

private:
    void fill(const FollowSpec* spec, bool running) override;
    FollowSpec controlsSpec() const;
    void chooseFile();

    QLineEdit* m_file;
    QComboBox* m_key;
    FilterEdit* m_filter;
    QCheckBox* m_fromStart;
    QPushButton* m_button;
    QLabel* m_figures;
    bool m_following = false;
};

}  // namespace hitcounter::ui
