#include "gui/settings/librarypage.h"

#include "workspace/settings/librarysettings.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace Gui {

LibraryPage::LibraryPage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("libraryPage"));
    auto *intro = new QLabel(tr("Headstart indexes the Markdown, plain-text and source files in these folders, "
                                "and keeps the index on this computer. View, Library shows what is indexed and "
                                "what was skipped."),
                             this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::PlainText);

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("libraryFolders"));
    m_list->setAccessibleName(tr("Library folders"));
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto *listLabel = new QLabel(tr("&Folders:"), this);
    listLabel->setBuddy(m_list);

    m_add = new QPushButton(tr("&Add Folder…"), this);
    m_add->setObjectName(QStringLiteral("libraryAdd"));
    m_remove = new QPushButton(tr("Re&move"), this);
    m_remove->setObjectName(QStringLiteral("libraryRemove"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("libraryStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(listLabel);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_add, &QPushButton::clicked, this, &LibraryPage::addFolder);
    connect(m_remove, &QPushButton::clicked, this, &LibraryPage::removeSelected);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &LibraryPage::refresh);
    refresh();
}

void LibraryPage::showFolders(const QStringList &folders)
{
    m_folders = folders;
    m_status->clear();
    m_list->clear();
    for (const QString &folder : std::as_const(m_folders)) {
        auto *item = new QListWidgetItem(QDir::toNativeSeparators(folder), m_list);
        item->setData(Qt::UserRole, folder);
        item->setToolTip(QDir::toNativeSeparators(folder));
    }
    refresh();
}

void LibraryPage::refresh()
{
    m_remove->setEnabled(!m_list->selectedItems().isEmpty());
}

void LibraryPage::addFolder()
{
    // Window-modal and answered by a handler, like every dialog here: answers keep streaming
    // behind it (no nested event loop).
    const QString start = m_folders.isEmpty() ? QDir::homePath() : m_folders.constLast();
    auto *dialog = new QFileDialog(this, tr("Add a Library Folder"), start);
    dialog->setObjectName(QStringLiteral("libraryFolderChooser"));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &LibraryPage::addChosenFolder);
    dialog->open();
}

void LibraryPage::addChosenFolder(const QString &chosen)
{
    if (chosen.isEmpty())
        return;
    const QString folder = normalizedLibraryFolder(chosen);
    if (m_folders.contains(folder)) {
        m_status->setText(tr("%1 is in the library already.").arg(QDir::toNativeSeparators(folder)));
        return;
    }
    QStringList folders = m_folders;
    folders << folder;
    showFolders(folders);
    // The index drops a folder inside another listed one (its files are the outer folder's);
    // the list keeps it, so removing the outer one later still leaves it in the library.
    for (const QString &other : std::as_const(folders)) {
        if (other != folder && folder.startsWith(other + QLatin1Char('/'))) {
            m_status->setText(tr("%1 is inside %2, which is in the library: its files are indexed once, as part of "
                                 "%2.")
                                  .arg(QDir::toNativeSeparators(folder), QDir::toNativeSeparators(other)));
            break;
        }
    }
    m_list->setCurrentRow(int(m_folders.size()) - 1);
    emit foldersEdited(m_folders);
}

void LibraryPage::removeSelected()
{
    QStringList folders = m_folders;
    for (const QListWidgetItem *item : m_list->selectedItems())
        folders.removeAll(item->data(Qt::UserRole).toString());
    if (folders == m_folders)
        return;
    showFolders(folders);
    emit foldersEdited(m_folders);
}

} // namespace Gui
