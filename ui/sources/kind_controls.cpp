#include "ui/sources/kind_controls.h"

namespace hitcounter::ui {

KindControls::KindControls(const QString& title, QWidget* parent) : QGroupBox(title, parent) {}

void KindControls::showFigures(const QString& /*text*/) {}

}  // namespace hitcounter::ui
