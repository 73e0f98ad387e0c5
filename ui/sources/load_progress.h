// LoadProgress: the "Opening trace" progress dialog while a replay loads its file (shown only
// when the load takes longer than 300 ms), with Cancel, which cancels the load. It closes when
// the load ends or the source stops.
//
// GUI thread only. The session must outlive this object; the dialog is a child of `window`
// (object name "loadDialog").
#pragma once

#include <QObject>

class QProgressDialog;
class QWidget;

namespace hitcounter::ui {

class SourceSession;

class LoadProgress : public QObject {
    Q_OBJECT
public:
    LoadProgress(SourceSession& session, QWidget& window);

private:
    void show(int permille, const QString& label);
    void close();

    SourceSession& m_session;
    QWidget& m_window;
    QProgressDialog* m_dialog = nullptr;
};

}  // namespace hitcounter::ui
