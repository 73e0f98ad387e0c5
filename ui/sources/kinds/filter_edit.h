// FilterEdit: the box a file kind (replay, follow) takes a filter expression in
// (docs/filters.md), with the problem of one that does not parse under it: "column 15:
// expected a field name ..., found the end". Only an expression that parses (or an empty box:
// every line) is handed on, when Enter is pressed or the box loses focus with a changed text.
//
// GUI thread only.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;

namespace hitcounter::ui {

class FilterEdit final : public QWidget {
    Q_OBJECT

public:
    // `objectName` names the line edit (tests and screenshots find it by it).
    explicit FilterEdit(const QString& objectName, QWidget* parent = nullptr);

    QString text() const;
    // Shows `text` as the expression in force, without emitting.
    void setText(const QString& text);

Q_SIGNALS:
    // A changed expression that parses, or "" for every line.
    void accepted(const QString& text);

private:
    void take();

    QLineEdit* m_edit;
    QLabel* m_problem;
    QString m_taken;  // the last expression shown or handed on
};

}  // namespace hitcounter::ui
