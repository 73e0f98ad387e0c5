#include "ui/sources/kinds/filter_edit.h"

#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "core/filter/record_filter.h"
#include "ui/common/theme.h"
#include "ui/sources/kinds/file_source_spec.h"

namespace hitcounter::ui {

FilterEdit::FilterEdit(const QString& objectName, QWidget* parent) : QWidget(parent) {
    m_edit = new QLineEdit;
    m_edit->setObjectName(objectName);
    m_edit->setPlaceholderText(tr("every line, or e.g. status=5xx"));
    m_edit->setToolTip(filterTip());
    m_edit->setClearButtonEnabled(true);
    m_problem = new QLabel;
    m_problem->setObjectName(objectName + QStringLiteral("Problem"));
    m_problem->setWordWrap(true);
    m_problem->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit);
    layout->addWidget(m_problem);
    connect(m_edit, &QLineEdit::editingFinished, this, &FilterEdit::take);
}

QString FilterEdit::text() const {
    return m_edit->text().trimmed();
}

void FilterEdit::setText(const QString& text) {
    m_taken = text.trimmed();
    m_edit->setText(m_taken);
    m_problem->hide();
}

void FilterEdit::take() {
    const QString expression = text();
    if (!expression.isEmpty()) {
        const auto parsed = RecordFilter::parse(expression.toStdString());
        if (const auto* problem = std::get_if<TextProblem>(&parsed)) {
            m_problem->setText(QString::fromStdString(describeFilterProblem(*problem)));
            m_problem->setStyleSheet(QStringLiteral("color: %1").arg(alarmColor().name()));
            m_problem->show();
            return;
        }
    }
    m_problem->hide();
    if (expression != m_taken) {
        m_taken = expression;
        Q_EMIT accepted(expression);
    }
}

}  // namespace hitcounter::ui
