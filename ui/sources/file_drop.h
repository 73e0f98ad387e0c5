// FileDrop: dropping a trace or an access log (a local file) onto a window opens it.
//
// GUI thread only. Installed on a widget (an event filter, its child): it accepts drags that
// carry at least one local file URL and, on drop, calls `open` with every local file (several
// are replayed as one), the same path as File > Open (Ctrl+O). Other drops (text, remote URLs)
// are refused.
#pragma once

#include <QObject>
#include <QStringList>
#include <functional>

class QMimeData;
class QWidget;

namespace hitcounter::ui {

class FileDrop : public QObject {
    Q_OBJECT
public:
    FileDrop(QWidget& target, std::function<void(const QStringList&)> open);

    // The local files in `mime`, in its order; empty if none.
    static QStringList localFiles(const QMimeData* mime);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::function<void(const QStringList&)> m_open;
};

}  // namespace hitcounter::ui
