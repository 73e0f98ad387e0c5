// ListenerControls: the socket listener's group in the sources dock: protocol, address, port,
// Start/Stop listening, and under them the running listener's figures (what it received, the
// kinds of lines it refused).
//
// GUI thread only.
#pragma once

#include "ui/sources/kind_controls.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace hitcounter::ui {

class ListenerControls final : public ControlsFor<ListenerSpec> {
public:
    ListenerControls();

    void showFigures(const QString& text) override;

private:
    void fill(const ListenerSpec* spec, bool running) override;
    ListenerSpec controlsSpec() const;

    QComboBox* m_protocol;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QPushButton* m_button;
    QLabel* m_figures;
    bool m_listening = false;
};

}  // namespace hitcounter::ui
