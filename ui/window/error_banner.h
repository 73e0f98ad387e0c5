// ErrorBanner: the red banner above the plots with the last error (a source that failed, bad
// settings, a Redis that does not answer). It stays until dismiss(): a source that starts
// dismisses it.
//
// GUI thread only. Its object name is "errorBanner" (tests and style sheets find it by it).
#pragma once

#include <QLabel>

namespace hitcounter::ui {

class ErrorBanner : public QLabel {
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget* parent = nullptr);

    void showError(const QString& message);
    void dismiss();
    // The error shown, or about to be (a window not shown yet, as --state-json's, holds it
    // too); empty when none.
    QString error() const;
};

}  // namespace hitcounter::ui
