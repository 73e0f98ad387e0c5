#include "ui/common/window_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace hitcounter::ui {

namespace {
// Title bar and borders the window manager adds around the client area.
constexpr QSize kFrameRoom(16, 40);
}  // namespace

QSize firstWindowSize(const QRect& available, QSize preferred) {
    if (!available.isValid()) {
        return preferred;
    }
    return QSize(std::min(preferred.width(), available.width() - kFrameRoom.width()),
                 std::min(preferred.height(), available.height() - kFrameRoom.height()));
}

QSize firstWindowSizeOnScreen(QSize preferred) {
    const QScreen* screen = QGuiApplication::primaryScreen();
    return firstWindowSize(screen ? screen->availableGeometry() : QRect(), preferred);
}

void fitIntoScreen(QWidget& window) {
    const QScreen* screen = window.screen() ? window.screen() : QGuiApplication::primaryScreen();
    if (screen == nullptr) {
        return;
    }
    const QRect available = screen->availableGeometry();
    const QSize most = available.size() - kFrameRoom;
    QSize size = window.size();
    if (size.width() > most.width() || size.height() > most.height()) {
        size = size.boundedTo(most).expandedTo(window.minimumSizeHint().boundedTo(most));
        window.resize(size);
    }
    QRect frame = window.frameGeometry();
    if (!available.contains(frame)) {
        frame.moveLeft(std::clamp(frame.left(), available.left(),
                                  std::max(available.left(), available.right() - frame.width())));
        frame.moveTop(std::clamp(frame.top(), available.top(),
                                 std::max(available.top(), available.bottom() - frame.height())));
        window.move(frame.topLeft());
    }
}

}  // namespace hitcounter::ui
