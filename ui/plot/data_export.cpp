#include "ui/plot/data_export.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMessageBox>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cmath>
#include <map>

#include "ui/common/save_file.h"
#include "ui/plot/display_zone.h"
#include "ui/plot/qcp.h"
#include "ui/plot/series_values.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {

QByteArray csvField(const QString& text) {
    QByteArray bytes = text.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n')) {
        bytes.replace("\"", "\"\"");
        return '"' + bytes + '"';
    }
    return bytes;
}

QByteArray numberField(double value) {
    if (value == std::round(value) && std::abs(value) < 9e15) {
        return QByteArray::number(qlonglong(value));
    }
    return QByteArray::number(value, 'g', 12);
}

// ISO 8601 with the zone's offset: "2009-03-01T18:52:07+12:00", "…Z" in UTC.
QByteArray isoTime(const DisplayZone& zone, qint64 second) {
    const QDateTime t = zone.at(second);
    const int offset = t.offsetFromUtc();
    QByteArray text = t.toString(QStringLiteral("yyyy-MM-ddThh:mm:ss")).toUtf8();
    if (offset == 0) {
        return text + 'Z';
    }
    const int minutes = std::abs(offset) / 60;
    return text + (offset < 0 ? '-' : '+') +
           QByteArray::number(minutes / 60).rightJustified(2, '0') + ':' +
           QByteArray::number(minutes % 60).rightJustified(2, '0');
}

}  // namespace

QByteArray visibleDataCsv(const QCustomPlot& plot) {
    QList<QCPGraph*> graphs;
    for (int i = 0; i < plot.graphCount(); ++i) {
        QCPGraph* g = plot.graph(i);
        if (isListed(*g)) {
            graphs << g;
        }
    }
    const bool panels = plot.axisRects().size() > 1;
    QByteArray csv("time_iso8601,seconds");
    // second -> one cell per graph
    std::map<qint64, std::vector<std::optional<double>>> rows;
    for (int gi = 0; gi < graphs.size(); ++gi) {
        QCPGraph* g = graphs[gi];
        QString name = g->name();
        if (panels && !g->valueAxis()->label().isEmpty()) {
            name = g->valueAxis()->label() + QStringLiteral(": ") + name;
        }
        csv += ',' + csvField(name);
        const QCPRange range = g->keyAxis()->range();
        const auto data = g->data();
        for (auto it = data->findBegin(range.lower, false); it != data->constEnd(); ++it) {
            if (it->key > range.upper) {
                break;
            }
            auto& row = rows[qint64(std::llround(it->key))];
            row.resize(std::size_t(graphs.size()));
            row[std::size_t(gi)] = ownValueAt(*g, it->key);
        }
    }
    csv += '\n';
    // Clock time in the zone shown, with its offset; a trace's seconds as UTC.
    const bool clock = !graphs.isEmpty() && isClockAxis(*graphs.front()->keyAxis());
    const DisplayZone utc = resolveZone(ZoneChoice::Utc, std::nullopt);
    const DisplayZone& zone = clock ? shownZone() : utc;
    for (const auto& [second, cells] : rows) {
        csv += isoTime(zone, second);
        csv += ',' + QByteArray::number(second);
        for (const std::optional<double>& cell : cells) {
            csv += ',';
            if (cell) {
                csv += numberField(*cell);
            }
        }
        csv += '\n';
    }
    return csv;
}

bool exportPlot(QCustomPlot& plot, ExportFormat format, const QString& path, QSize size,
                QString* error) {
    if (format == ExportFormat::Csv) {
        return saveFile(path, visibleDataCsv(plot), error);
    }
    const int width = size.isEmpty() ? plot.width() : size.width();
    const int height = size.isEmpty() ? plot.height() : size.height();
    // QCustomPlot writes to a file name: render beside nothing else (a private folder), then
    // copy atomically into place, so an existing file is replaced only by a complete one.
    QTemporaryDir temp;
    const QString draft = temp.filePath(QStringLiteral("draft"));
    const bool drawn =
        temp.isValid() && (format == ExportFormat::Png ? plot.savePng(draft, width, height)
                                                       : plot.savePdf(draft, width, height));
    QFile file(draft);
    if (!drawn || !file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("%1: cannot draw the plot as %2")
                     .arg(path, format == ExportFormat::Png ? QStringLiteral("PNG")
                                                            : QStringLiteral("PDF"));
        return false;
    }
    return saveFile(path, file.readAll(), error);
}

std::optional<ExportChoice> askExportChoice(const QCustomPlot& plot, QWidget* parent) {
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("exportDialog"));
    dialog.setWindowTitle(QObject::tr("Export the plot"));
    auto* form = new QFormLayout(&dialog);
    auto* formatBox = new QComboBox;
    formatBox->addItem(QObject::tr("CSV: the visible data"), int(ExportFormat::Csv));
    formatBox->addItem(QObject::tr("PNG image"), int(ExportFormat::Png));
    formatBox->addItem(QObject::tr("PDF (vector)"), int(ExportFormat::Pdf));
    form->addRow(QObject::tr("Format:"), formatBox);
    auto* onScreen = new QRadioButton(
        QObject::tr("as on screen (%1 × %2)").arg(plot.width()).arg(plot.height()));
    auto* chosen = new QRadioButton(QObject::tr("chosen:"));
    onScreen->setChecked(true);
    auto* widthBox = new QSpinBox;
    auto* heightBox = new QSpinBox;
    for (QSpinBox* box : {widthBox, heightBox}) {
        box->setRange(100, 10000);
        box->setSuffix(QObject::tr(" px"));
    }
    widthBox->setValue(1920);
    heightBox->setValue(1080);
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(chosen);
    sizeRow->addWidget(widthBox);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(heightBox);
    form->addRow(QObject::tr("Size:"), onScreen);
    form->addRow(QString(), sizeRow);
    const auto sync = [&] {
        const bool image = formatBox->currentData().toInt() != int(ExportFormat::Csv);
        for (QWidget* w : std::initializer_list<QWidget*>{onScreen, chosen, widthBox, heightBox}) {
            w->setEnabled(image);
        }
    };
    QObject::connect(formatBox, &QComboBox::currentIndexChanged, &dialog, sync);
    sync();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) {
        return std::nullopt;
    }
    ExportChoice choice;
    choice.format = ExportFormat(formatBox->currentData().toInt());
    if (chosen->isChecked()) {
        choice.size = QSize(widthBox->value(), heightBox->value());
    }
    return choice;
}

bool exportAsking(QCustomPlot& plot, const ExportChoice& choice, const QString& path,
                  QWidget* parent) {
    if (QFileInfo::exists(path) &&
        QMessageBox::question(parent, QObject::tr("Replace the file?"),
                              QObject::tr("%1 already exists. Replace it?").arg(path),
                              QMessageBox::Yes | QMessageBox::No,
                              QMessageBox::No) != QMessageBox::Yes) {
        return false;
    }
    QString error;
    if (!exportPlot(plot, choice.format, path, choice.size, &error)) {
        QMessageBox::warning(parent, QObject::tr("Export failed"), error);
        return false;
    }
    return true;
}

void exportInteractive(QCustomPlot& plot, QWidget* parent) {
    const std::optional<ExportChoice> choice = askExportChoice(plot, parent);
    if (!choice) {
        return;
    }
    const ExportFormat format = choice->format;
    const QString suffix = format == ExportFormat::Csv   ? QStringLiteral("csv")
                           : format == ExportFormat::Png ? QStringLiteral("png")
                                                         : QStringLiteral("pdf");
    const QString dir = QStandardPaths::writableLocation(format == ExportFormat::Csv
                                                             ? QStandardPaths::DocumentsLocation
                                                             : QStandardPaths::PicturesLocation);
    // exportAsking asks before replacing a file (one question, not the dialog's too).
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export to"),
        QDir(dir).filePath(plot.objectName() + QLatin1Char('.') + suffix),
        QObject::tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix), nullptr,
        QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) {
        exportAsking(plot, *choice, path, parent);
    }
}

}  // namespace hitcounter::ui
