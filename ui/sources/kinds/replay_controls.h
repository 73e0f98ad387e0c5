// ReplayControls: the replay's group in the sources dock: "Open trace…" (the window's File >
// Open), the file replayed, and the access-log key and filter, edits: a running replay reloads
// with them and returns to the same time; otherwise the next trace opened takes them.
//
// GUI thread only.
#pragma once

#include "ui/sources/kind_controls.h"

class QComboBox;
class QLabel;

namespace hitcounter::ui {

class FilterEdit;

class ReplayControls final : public ControlsFor<ReplaySpec> {
public:
    ReplayControls();

private:
    void fill(const ReplaySpec* spec, bool running) override;

    QLabel* m_file;
    QComboBox* m_key;
    FilterEdit* m_filter;
};

}  // namespace hitcounter::ui
