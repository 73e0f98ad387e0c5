#include "ui/teach/sub_step_list.h"

#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

SubStepList::SubStepList(QWidget* parent)
    : QWidget(parent), m_header(new QPushButton(this)), m_list(new QListWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_header->setCheckable(true);
    m_header->setChecked(true);
    m_header->setFlat(true);
    m_header->setStyleSheet(QStringLiteral("text-align: left; font-weight: bold;"));
    m_header->setToolTip(
        tr("Show or hide the lines this operation runs (Down/Up step through "
           "them)"));
    m_list->setFont(teachstyle::mono(9));
    // Two lines at least (1280x720 must fit), six at most: the narration box stays the height
    // of its text.
    m_list->setMinimumHeight(QFontMetrics(m_list->font()).lineSpacing() * 2 + 6);
    m_list->setMaximumHeight(QFontMetrics(m_list->font()).lineSpacing() * 6 + 6);
    // Takes the height the narration needs rather than asking for more.
    m_list->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    layout->addWidget(m_header);
    layout->addWidget(m_list, 1);
    connect(m_header, &QPushButton::toggled, m_list, &QWidget::setVisible);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row != m_chosen) {
            m_chosen = row;
            Q_EMIT chosenChanged(row);
        }
    });
}

void SubStepList::setSubSteps(const std::vector<teach::SubStep>& subSteps) {
    m_chosen = -1;
    {
        const QSignalBlocker blocker(m_list);
        m_list->clear();
        for (std::size_t i = 0; i < subSteps.size(); ++i) {
            m_list->addItem(
                QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(subSteps[i].text)));
        }
    }
    m_header->setText(
        subSteps.empty()
            ? tr("Inside this step: nothing runs at the start")
            : tr("Inside this step: %1 lines run (click one, or Down/Up)").arg(subSteps.size()));
}

int SubStepList::count() const {
    return m_list->count();
}

void SubStepList::choose(int index) {
    m_chosen = std::clamp(index, -1, count() - 1);
    const QSignalBlocker blocker(m_list);
    m_list->setCurrentRow(m_chosen);
}

}  // namespace hitcounter::ui
