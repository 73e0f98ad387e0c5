// SimulatorControls: the simulator's group in the sources dock: pattern, rate (a logarithmic
// slider), keys, speed and Start/Restart. The rate, pattern and speed are edits (they apply at
// once to a running simulator); the keys apply when it is (re)started.
//
// GUI thread only.
#pragma once

#include "ui/sources/kind_controls.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace hitcounter::ui {

class SimulatorControls final : public ControlsFor<SimulatorSpec> {
public:
    SimulatorControls();

private:
    void fill(const SimulatorSpec* spec, bool running) override;
    // The spec the controls describe now.
    SimulatorSpec controlsSpec() const;

    QComboBox* m_pattern;
    QSlider* m_rate;
    QLabel* m_rateLabel;
    QSpinBox* m_keys;
    QComboBox* m_speed;
    QPushButton* m_start;
    bool m_updating = false;
};

}  // namespace hitcounter::ui
