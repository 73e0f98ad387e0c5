// LimitsControls: the Rate limits tab's row of settings: L (requests) per W (seconds), the
// scope (per key, or all traffic as one key), which algorithms run, and Apply, which emits
// applyRequested() with the options shown. The settings are kept between runs (limits/limit,
// limits/per, limits/perKey, limits/algorithms), each checked when read back.
//
// GUI thread only.
//
// Example: showOptions({limit 100 per 60 s, per key, {"fixed", "log"}}) ticks those two; a
// click on Apply emits them, enabled.
#pragma once

#include <QWidget>
#include <vector>

#include "core/engine/limits_frame.h"

class QCheckBox;
class QComboBox;
class QSettings;
class QSpinBox;

namespace hitcounter::ui {

class SettingsReader;

class LimitsControls : public QWidget {
    Q_OBJECT
public:
    explicit LimitsControls(QWidget* parent = nullptr);

    // Sets the controls to `options` (emits nothing); an unknown algorithm is not ticked.
    void showOptions(const LimitsOptions& options);
    // The options the controls describe, enabled.
    LimitsOptions requestedOptions() const;
    void saveSettings(QSettings& settings) const;
    void restoreSettings(SettingsReader& settings);

Q_SIGNALS:
    void applyRequested(const LimitsOptions& options);

private:
    QSpinBox* m_limitBox;
    QSpinBox* m_perBox;
    QComboBox* m_scopeBox;
    std::vector<QCheckBox*> m_algorithmBoxes;
};

}  // namespace hitcounter::ui
