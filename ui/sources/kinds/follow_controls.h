// FollowControls: the follow kind's group in the sources dock: the log file (typed or chosen;
// several chosen together, or given with --follow, are followed as one: "and 2 more files"
// under the field, until another file is typed), its access-log key and filter, whether to read the
// lines already there, Start/Stop following, and under them the running follower's figures.
//
// GUI thread only.
#pragma once

#include <QStringList>

#include "ui/sources/kind_controls.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace hitcounter::ui {

class FilterEdit;

class FollowControls final : public ControlsFor<FollowSpec> {
public:
    FollowControls();

    void showFigures(const QString& text) override;

private:
    void fill(const FollowSpec* spec, bool running) override;
    FollowSpec controlsSpec() const;
    void chooseFile();
    // Shows "and N more files" while the field holds the file they were chosen with.
    void showMoreFiles();

    QLineEdit* m_file;
    QComboBox* m_key;
    FilterEdit* m_filter;
    QCheckBox* m_fromStart;
    QPushButton* m_button;
    QLabel* m_figures;
    QLabel* m_more;
    QStringList m_moreFiles;  // followed with m_moreWith, while the field holds it
    QString m_moreWith;
    bool m_following = false;
};

}  // namespace hitcounter::ui
