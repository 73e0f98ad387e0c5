// SubStepList: the pseudocode lines one operation runs (teach::SubStep), numbered, under a
// header button that folds the list away ("Inside this step: 5 lines run ...").
//
// GUI thread only. One line may be chosen (-1: none, the operation whole); a click chooses one
// and emits chosenChanged, choose() does it quietly. Between two and six lines tall, so the
// narration beside it keeps its height at 1280x720.
#pragma once

#include <QWidget>
#include <vector>

#include "core/teach/frame.h"

class QListWidget;
class QPushButton;

namespace hitcounter::ui {

class SubStepList : public QWidget {
    Q_OBJECT

public:
    explicit SubStepList(QWidget* parent = nullptr);

    // The operation's lines, none chosen.
    void setSubSteps(const std::vector<teach::SubStep>& subSteps);
    int count() const;
    int chosen() const { return m_chosen; }
    void choose(int index);  // clamped to [-1, count() - 1]; no signal

Q_SIGNALS:
    void chosenChanged(int index);

private:
    QPushButton* m_header;
    QListWidget* m_list;
    int m_chosen = -1;
};

}  // namespace hitcounter::ui
