#include "ui/sources/load_progress.h"

#include <QProgressDialog>

#include "ui/sources/source_session.h"

namespace hitcounter::ui {

LoadProgress::LoadProgress(SourceSession& session, QWidget& window)
    : QObject(&window), m_session(session), m_window(window) {
    connect(&m_session, &SourceSession::loadProgress, this, &LoadProgress::show);
    connect(&m_session, &SourceSession::loadFinished, this, &LoadProgress::close);
    connect(&m_session, &SourceSession::stopped, this, &LoadProgress::close);
}

void LoadProgress::show(int permille, const QString& label) {
    if (m_dialog == nullptr) {
        m_dialog = new QProgressDialog(tr("Loading the trace…"), tr("Cancel"), 0, 1000, &m_window);
        m_dialog->setObjectName(QStringLiteral("loadDialog"));
        m_dialog->setWindowTitle(tr("Opening trace"));
        m_dialog->setMinimumDuration(300);
        m_dialog->setAutoClose(false);
        m_dialog->setAutoReset(false);
    }
    m_dialog->setValue(permille);
    m_dialog->setLabelText(label);
    if (m_dialog->wasCanceled()) {
        m_session.cancelLoading();
    }
}

void LoadProgress::close() {
    if (m_dialog != nullptr) {
        m_dialog->deleteLater();
        m_dialog = nullptr;
    }
}

}  // namespace hitcounter::ui
