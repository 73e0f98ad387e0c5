#include "ui/common/save_file.h"

#include <QObject>
#include <QSaveFile>

namespace hitcounter::ui {

bool saveFile(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = QObject::tr("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace hitcounter::ui
