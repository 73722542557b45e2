#include "gui/library/librarydock.h"

#include "knowledge/library.h"

#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Gui {

namespace {

QLabel *wrappingLabel(QWidget *parent, const char *name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QLatin1String(name));
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

QTreeWidget *table(QWidget *parent, const char *name, const QStringList &headers)
{
    auto *tree = new QTreeWidget(parent);
    tree->setObjectName(QLatin1String(name));
    tree->setRootIsDecorated(false);
    tree->setUniformRowHeights(true);
    tree->setHeaderLabels(headers);
    tree->header()->setStretchLastSection(false);
    tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < headers.size(); ++c)
        tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    return tree;
}

} // namespace

LibraryDock::LibraryDock(Knowledge::Library *library, QWidget *parent)
    : QDockWidget(tr("Library"), parent)
    , m_library(library)
{
    Q_ASSERT(library);
    auto *body = new QWidget(this);
    m_summary = wrappingLabel(body, "librarySummary");
    m_message = wrappingLabel(body, "libraryMessage");
    m_message->hide();
    m_progress = new QProgressBar(body);
    m_progress->setObjectName(QStringLiteral("libraryProgress"));
    m_progress->setAccessibleName(tr("Indexing progress"));
    m_progress->setFormat(tr("Indexing: %v of %m files"));
    m_progress->hide();
    m_folders = table(body, "libraryFolderList", {tr("Folder"), tr("Files"), tr("Passages"), tr("Skipped")});
    m_folders->setAccessibleName(tr("Library folders"));
    m_skippedLabel = wrappingLabel(body, "librarySkippedLabel");
    m_skipped = table(body, "librarySkipped", {tr("File"), tr("Why it was skipped")});
    m_skipped->setAccessibleName(tr("Skipped files"));
    m_skipped->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    auto *edit = new QPushButton(tr("Edit Folders…"), body);
    edit->setObjectName(QStringLiteral("libraryEditFolders"));
    connect(edit, &QPushButton::clicked, this, &LibraryDock::settingsRequested);

    auto *layout = new QVBoxLayout(body);
    layout->addWidget(m_summary);
    layout->addWidget(m_message);
    layout->addWidget(m_progress);
    layout->addWidget(m_folders, 2);
    layout->addWidget(m_skippedLabel);
    layout->addWidget(m_skipped, 1);
    layout->addWidget(edit, 0, Qt::AlignLeft);
    setWidget(body);

    connect(library, &Knowledge::Library::indexingStarted, this, [this] {
        m_progress->setRange(0, 0); // busy until the pass knows how many files it has
        m_progress->show();
    });
    connect(library, &Knowledge::Library::progress, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        m_progress->show();
    });
    connect(library, &Knowledge::Library::indexingFinished, this, [this] {
        m_progress->hide();
        refresh();
    });
    connect(library, &Knowledge::Library::contentsChanged, this, &LibraryDock::refresh);
    connect(library, &Knowledge::Library::ready, this, &LibraryDock::refresh);
    connect(library, &Knowledge::Library::indexRebuilt, this,
            [this](const QString &message) { showMessage(message, false); });
    connect(library, &Knowledge::Library::failed, this, [this](const QString &message) { showMessage(message, true); });
    if (!library->errorMessage().isEmpty())
        showMessage(library->errorMessage(), true);
    if (library->isIndexing()) {
        m_progress->setRange(0, 0);
        m_progress->show();
    }
    refresh();
}

void LibraryDock::showMessage(const QString &message, bool problem)
{
    m_message->setText(message);
    m_message->setProperty("problem", problem);
    m_message->setVisible(!message.isEmpty());
}

void LibraryDock::refresh()
{
    if (!m_library)
        return;
    const QLocale locale;
    const QStringList listed = m_library->folders();
    const QList<Knowledge::FolderStatus> statuses = m_library->folderStatuses();
    m_folders->clear();
    int files = 0;
    int chunks = 0;
    // Listed in the order the user added them; a folder the index has no row for yet (being
    // added, or inside another listed folder) shows no counts rather than zeros.
    for (const QString &folder : listed) {
        auto *item = new QTreeWidgetItem(m_folders);
        item->setText(0, QDir::toNativeSeparators(folder));
        item->setToolTip(0, QDir::toNativeSeparators(folder));
        for (const Knowledge::FolderStatus &status : statuses) {
            if (status.path != folder)
                continue;
            item->setText(1, locale.toString(status.files));
            item->setText(2, locale.toString(status.chunks));
            item->setText(3, locale.toString(status.skipped));
            files += status.files;
            chunks += status.chunks;
        }
        for (int c = 1; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    if (listed.isEmpty())
        m_summary->setText(tr("No folders yet. Add the folders with your notes and documents in Settings, Library; "
                              "the chat can then answer from them."));
    else if (!m_library->isReady())
        m_summary->setText(tr("Opening the index…"));
    else
        m_summary->setText(tr("Indexed: %1, %2.", "files, passages")
                               .arg(files == 1 ? tr("1 file") : tr("%1 files").arg(locale.toString(files)),
                                    chunks == 1 ? tr("1 passage") : tr("%1 passages").arg(locale.toString(chunks))));

    const QList<Knowledge::SkippedFile> skipped = m_library->skippedFiles();
    m_skipped->clear();
    for (const Knowledge::SkippedFile &file : skipped) {
        auto *item = new QTreeWidgetItem(m_skipped);
        item->setText(0, QDir::toNativeSeparators(file.path));
        item->setToolTip(0, QDir::toNativeSeparators(file.path));
        item->setText(1, file.message());
        item->setToolTip(1, file.message());
    }
    m_skippedLabel->setText(skipped.isEmpty()     ? tr("No files were skipped.")
                            : skipped.size() == 1 ? tr("1 file was skipped:")
                                                  : tr("%1 files were skipped:").arg(locale.toString(skipped.size())));
    m_skipped->setVisible(!skipped.isEmpty());
}

} // namespace Gui
