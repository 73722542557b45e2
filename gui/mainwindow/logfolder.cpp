#include "gui/mainwindow/logfolder.h"

#include "base/privatefiles.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QMessageBox>
#include <QUrl>

namespace Gui {

void openLogFolder(QWidget *parent, const QString &directory)
{
    if (Base::PrivateFiles::makeDirectory(directory) && QDesktopServices::openUrl(QUrl::fromLocalFile(directory)))
        return;
    auto *box = new QMessageBox(QMessageBox::Information,
                                QCoreApplication::translate("Gui::LogFolder", "Open Log Folder"),
                                QCoreApplication::translate("Gui::LogFolder",
                                                            "The log folder could not be opened here. It is:"),
                                QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("logFolderMessage"));
    // Selectable, on a line of its own: to paste into a terminal or a bug report.
    box->setInformativeText(QDir::toNativeSeparators(directory));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Gui
