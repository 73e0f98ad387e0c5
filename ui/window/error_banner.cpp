#include "ui/window/error_banner.h"

#include "ui/common/theme.h"

namespace hitcounter::ui {

ErrorBanner::ErrorBanner(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("errorBanner"));
    setWordWrap(true);
    setStyleSheet(
        QStringLiteral("QLabel { %1 padding: 6px; border-radius: 3px; font-weight: bold; }")
            .arg(boxColors(BoxTone::Error, false)));
    setToolTip(tr("The last error; it clears when a source starts."));
    hide();
}

void ErrorBanner::showError(const QString& message) {
    setText(message);
    show();
}

void ErrorBanner::dismiss() {
    hide();
}

QString ErrorBanner::error() const {
    return isVisibleTo(window()) ? text() : QString();
}

}  // namespace hitcounter::ui
