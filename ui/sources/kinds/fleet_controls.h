// FleetControls: the fleet kind's group in the sources dock: the fleet's Redis URL and Watch
// fleet / Stop watching. A URL typed with a password is used for this session only: the field
// shows the password as *** (unchanged, it still means that URL), and it is never saved.
//
// GUI thread only.
#pragma once

#include "ui/sources/kind_controls.h"

class QLineEdit;
class QPushButton;

namespace hitcounter::ui {

class FleetControls final : public ControlsFor<FleetSpec> {
public:
    FleetControls();

private:
    void fill(const FleetSpec* spec, bool running) override;
    FleetSpec controlsSpec() const;

    QLineEdit* m_url;
    QString m_shownUrl;  // the URL of the fleet shown, with its password
    QPushButton* m_button;
    bool m_watching = false;
};

}  // namespace hitcounter::ui
