#include "ui/window/teach_window.h"

#include "ui/common/window_fit.h"
#include "ui/teach/teach_view.h"

namespace hitcounter::ui {

TeachView* showTeachWindow(QWidget& owner) {
    auto* view = owner.findChild<TeachView*>(QString(), Qt::FindDirectChildrenOnly);
    if (!view) {
        view = new TeachView(&owner);
        view->setWindowFlag(Qt::Window);
        view->resize(firstWindowSizeOnScreen(kTeachWindow));
    }
    view->show();
    view->raise();
    view->activateWindow();
    return view;
}

}  // namespace hitcounter::ui
