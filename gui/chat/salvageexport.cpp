#include "gui/chat/salvageexport.h"

#include "workspace/conversations/conversationsalvage.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>

namespace Gui {

namespace {

void tell(QWidget *parent, QMessageBox::Icon icon, const QString &text)
{
    auto *box = new QMessageBox(icon, QCoreApplication::translate("Gui::SalvageExport", "Export Damaged Conversations"),
                                text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

void exportSalvagedConversations(QWidget *parent, const QString &damagedFile)
{
    auto *dialog = new QFileDialog(parent,
                                   QCoreApplication::translate("Gui::SalvageExport", "Export Damaged Conversations To"),
                                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QFileDialog::fileSelected, parent, [parent, damagedFile](const QString &folder) {
        const auto salvage = ConversationSalvage::read(damagedFile);
        if (!salvage) {
            tell(parent, QMessageBox::Warning, salvage.error());
            return;
        }
        // A folder of its own: the export must not mix with (or overwrite) what is there.
        const QString target = QDir(folder).filePath(
            QStringLiteral("headstart-conversations-%1").arg(QFileInfo(damagedFile).fileName().section(u'-', -2)));
        const auto written = salvage->exportTo(target);
        if (!written)
            tell(parent, QMessageBox::Warning, written.error());
        else
            tell(parent, QMessageBox::Information,
                 QCoreApplication::translate("Gui::SalvageExport",
                                             "%1 readable conversation(s) were written to %2, one Markdown file "
                                             "each and all of them in "
                                             "conversations.json.")
                     .arg(*written)
                     .arg(QDir::toNativeSeparators(target)));
    });
    dialog->open();
}

} // namespace Gui
