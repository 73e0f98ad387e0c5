#include "ui/teach/transport_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace {

QToolButton* makeButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip) {
    auto* button = new QToolButton(parent);
    button->setIcon(parent->style()->standardIcon(icon));
    button->setIconSize(QSize(22, 22));
    button->setAutoRaise(true);
    button->setToolTip(tip);
    return button;
}

}  // namespace

TransportBar::TransportBar(QWidget* parent)
    : QWidget(parent),
      m_first(makeButton(this, QStyle::SP_MediaSkipBackward, tr("Jump to the start (Home)"))),
      m_back(makeButton(this, QStyle::SP_MediaSeekBackward, tr("Step back (Left)"))),
      m_play(makeButton(this, QStyle::SP_MediaPlay, tr("Play / pause (Space)"))),
      m_forward(makeButton(this, QStyle::SP_MediaSeekForward, tr("Step forward (Right)"))),
      m_last(makeButton(this, QStyle::SP_MediaSkipForward, tr("Jump to the end (End)"))),
      m_speed(new QComboBox(this)),
      m_scrubber(new QSlider(Qt::Horizontal, this)),
      m_position(new QLabel(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    for (QToolButton* b : {m_first, m_back, m_play, m_forward, m_last}) {
        layout->addWidget(b);
    }
    m_speed->addItem(tr("0.5× speed"), 2.4);
    m_speed->addItem(tr("1× speed"), 1.2);
    m_speed->addItem(tr("2× speed"), 0.6);
    m_speed->addItem(tr("4× speed"), 0.3);
    m_speed->setCurrentIndex(1);
    layout->addWidget(m_speed);
    m_scrubber->setMinimum(0);
    m_scrubber->setPageStep(1);
    m_scrubber->setTickPosition(QSlider::TicksBelow);
    m_scrubber->setToolTip(tr("Every step of the lesson: drag to any of them"));
    layout->addWidget(m_scrubber, 1);
    m_position->setFont(teachstyle::font(10, true));
    m_position->setMinimumWidth(
        QFontMetrics(m_position->font()).horizontalAdvance(tr("step %1 of %2").arg(888).arg(888)) +
        8);
    layout->addWidget(m_position);
    auto* saveFrame = new QPushButton(tr("Save frame…"), this);
    saveFrame->setToolTip(tr("Save what you see as a PNG"));
    auto* saveAll = new QPushButton(tr("Save all steps…"), this);
    saveAll->setToolTip(tr("Save every step of the lesson as numbered PNGs, for slides"));
    layout->addWidget(saveFrame);
    layout->addWidget(saveAll);
    auto* savePdf = new QPushButton(tr("Handout PDF…"), this);
    savePdf->setToolTip(
        tr("Save the lesson as a PDF handout: one page per step with its picture "
           "and narration"));
    layout->addWidget(savePdf);
    connect(savePdf, &QPushButton::clicked, this, &TransportBar::exportPdfRequested);

    connect(m_first, &QToolButton::clicked, this, &TransportBar::firstRequested);
    connect(m_back, &QToolButton::clicked, this, &TransportBar::backRequested);
    connect(m_play, &QToolButton::clicked, this, &TransportBar::playToggled);
    connect(m_forward, &QToolButton::clicked, this, &TransportBar::forwardRequested);
    connect(m_last, &QToolButton::clicked, this, &TransportBar::lastRequested);
    connect(m_scrubber, &QSlider::valueChanged, this, &TransportBar::stepRequested);
    connect(m_speed, &QComboBox::currentIndexChanged, this, &TransportBar::speedChanged);
    connect(saveFrame, &QPushButton::clicked, this, &TransportBar::exportFrameRequested);
    connect(saveAll, &QPushButton::clicked, this, &TransportBar::exportAllRequested);
}

void TransportBar::setState(int step, int lastStep, bool playing) {
    {
        const QSignalBlocker blocker(m_scrubber);
        m_scrubber->setMaximum(lastStep);
        m_scrubber->setTickInterval(std::max(1, lastStep / 40));
        m_scrubber->setValue(step);
    }
    m_position->setText(tr("step %1 of %2").arg(step).arg(lastStep));
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_first->setEnabled(step > 0);
    m_back->setEnabled(step > 0);
    m_forward->setEnabled(step < lastStep);
    m_last->setEnabled(step < lastStep);
    m_play->setEnabled(lastStep > 0);
}

double TransportBar::secondsPerStep() const {
    return m_speed->currentData().toDouble();
}

}  // namespace hitcounter::ui
