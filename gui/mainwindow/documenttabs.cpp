#include "gui/mainwindow/documenttabs.h"

#include "gui/mainwindow/documenttab.h"
#include "workspace/documents/document.h"
#include "workspace/settings/appsettings.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTextDocument>

#include <memory>

namespace Gui {

namespace {
// Unsaved text reaches the recovery copy at most this late after the last edit.
constexpr int AutosaveIntervalMs = 5000;

QString tabTitle(const Document *document)
{
    return document->displayName() + (document->isModified() ? QStringLiteral(" *") : QString());
}

// The lowest "Untitled N" no document in a tab of any window shows. Two windows never show the
// same name; a closed one's number is free again at once (its Document is deleted later).
int lowestFreeNumber()
{
    QSet<int> shown;
    for (const QWidget *window : QApplication::topLevelWidgets()) {
        for (const DocumentTabs *tabs : window->findChildren<DocumentTabs *>()) {
            for (const Document *document : tabs->documents())
                shown.insert(document->shownNumber());
        }
    }
    int number = 1;
    while (shown.contains(number))
        ++number;
    return number;
}

// Where Save As starts: the folder of the file saved or opened last, else the user's documents.
QString saveFolder()
{
    QSettings settings;
    const QStringList recent = AppSettings::recentFiles(settings);
    for (const QString &path : recent) {
        if (const QString folder = QFileInfo(path).absolutePath(); QFileInfo(folder).isDir())
            return folder;
    }
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

} // namespace

DocumentTabs::DocumentTabs(QWidget *parent)
    : QTabWidget(parent)
{
    setDocumentMode(true);
    setTabsClosable(true);
    setMovable(true);
    setAccessibleName(tr("Documents"));
    connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (DocumentTab *t = tab(index))
            closeDocument(t);
    });
    m_autosave.setInterval(AutosaveIntervalMs);
    connect(&m_autosave, &QTimer::timeout, this, &DocumentTabs::writeRecoveryCopies);
    m_autosave.start();
}

DocumentTabs::~DocumentTabs() = default;

DocumentTab *DocumentTabs::tab(int index) const
{
    return qobject_cast<DocumentTab *>(widget(index));
}

DocumentTab *DocumentTabs::currentTab() const
{
    return qobject_cast<DocumentTab *>(currentWidget());
}

Document *DocumentTabs::currentDocument() const
{
    const DocumentTab *t = currentTab();
    return t ? t->model() : nullptr;
}

QList<Document *> DocumentTabs::documents() const
{
    QList<Document *> out;
    for (int i = 0; i < count(); ++i)
        out << tab(i)->model();
    return out;
}

DocumentTab *DocumentTabs::newDocument(const QString &text)
{
    // Ours; removeTab() deletes it after its tab.
    auto *document = new Document(this);
    document->setRecoveryDirectory(m_recoveryDirectory);
    // Numbered across the windows: an untitled document's id (what warm-ups and recovery copies
    // are keyed on) must not be another window's too. GUI thread only.
    static int untitledCounter = 0;
    document->setUntitled(++untitledCounter, text);
    document->setShownNumber(lowestFreeNumber());
    auto *view = new DocumentTab(document, this);
    connect(document, &Document::titleChanged, this, [this, view, document] {
        if (const int index = indexOf(view); index >= 0)
            setTabText(index, tabTitle(document));
        emit titlesChanged();
    });
    connect(document->textDocument(), &QTextDocument::contentsChanged, this,
            [this, document] { emit documentEdited(document); });
    connect(document, &Document::promptReady, this, [this, document] { emit promptReady(document); });
    connect(document, &Document::longLinesChanged, this, [this, document](bool longLines) {
        if (longLines)
            emit statusMessage(tr("%1 has lines of over %2 characters without a break: they wrap anywhere at the "
                                  "window's edge, not between words, so that editing stays fast.")
                                   .arg(tabTitle(document), QLocale().toString(Document::LongLineChars)),
                               10000);
    });
    emit tabCreated(view);
    addTab(view, tabTitle(document));
    setCurrentWidget(view);
    view->setFocus();
    return view;
}

DocumentTab *DocumentTabs::untouchedEmptyTab() const
{
    DocumentTab *view = currentTab();
    const Document *document = view ? view->model() : nullptr;
    return document && document->filePath().isEmpty() && document->title().isEmpty() && !document->isModified()
                   && document->characterCount() == 0
               ? view
               : nullptr;
}

DocumentTab *DocumentTabs::openText(const QString &title, const QString &text)
{
    // Into an untouched empty tab, as a file would be.
    DocumentTab *view = untouchedEmptyTab();
    if (view) {
        view->model()->setText(text);
        view->model()->textDocument()->clearUndoRedoStacks(); // nothing to undo to: it was never edited
    } else {
        view = newDocument(text);
    }
    view->model()->setTitle(title);
    view->model()->setModified(false);
    emit documentLoaded(view->model());
    return view;
}

bool DocumentTabs::openFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < count(); ++i) {
        if (tab(i)->model()->filePath() == absolute) {
            setCurrentIndex(i);
            return true;
        }
    }
    // Reuse an untouched empty tab rather than leaving it behind.
    DocumentTab *view = untouchedEmptyTab();
    const bool reuse = view != nullptr;
    if (!reuse)
        view = newDocument();
    if (auto error = view->model()->load(path)) {
        if (!reuse)
            removeTab(view);
        showError(tr("Open Document"), *error);
        return false;
    }
    if (!path.startsWith(QLatin1Char(':')))
        addRecentFile(view->model()->filePath());
    if (const QByteArray encoding = view->model()->encoding(); encoding != "UTF-8")
        emit statusMessage(tr("%1 is in %2: Headstart saves it back in %2.")
                               .arg(view->model()->displayName(), QString::fromLatin1(encoding)),
                           8000);
    emit documentLoaded(view->model());
    return true;
}

void DocumentTabs::openWithDialog()
{
    const Document *document = currentDocument();
    auto *dialog = new QFileDialog(this, tr("Open Document"),
                                   document ? QFileInfo(document->filePath()).path() : QString(),
                                   tr("Text documents (*.md *.markdown *.txt);;All files (*)"));
    dialog->setFileMode(QFileDialog::ExistingFiles);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filesSelected, this, [this](const QStringList &paths) {
        for (const QString &path : paths)
            openFile(path);
    });
    dialog->open();
}

void DocumentTabs::save(DocumentTab *view, bool askForPath, std::function<void(bool)> done)
{
    if (!done)
        done = [](bool) {};
    Document *document = view->model();
    auto write = [this, document, done](const QString &path) {
        if (auto error = document->saveTo(path)) {
            showError(tr("Save Document"), *error);
            done(false);
            return;
        }
        addRecentFile(document->filePath());
        emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document->filePath())), 3000);
        done(true);
    };
    const QString path = document->filePath();
    if (!askForPath && !path.isEmpty() && !path.startsWith(QLatin1Char(':'))) {
        write(path);
        return;
    }
    auto *dialog = new QFileDialog(this, tr("Save Document"),
                                   path.isEmpty() || path.startsWith(QLatin1Char(':'))
                                       ? QDir(saveFolder()).filePath(document->proposedFileName())
                                       : path,
                                   tr("Markdown (*.md);;Text (*.txt);;All files (*)"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("md"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Exactly one of the two fires: a selected file, or the dialog closed without one.
    auto answered = std::make_shared<bool>(false);
    connect(dialog, &QFileDialog::fileSelected, this, [write, answered](const QString &selected) {
        *answered = true;
        write(selected);
    });
    connect(dialog, &QDialog::finished, this, [done, answered] {
        if (!*answered)
            done(false);
    });
    dialog->open();
}

void DocumentTabs::askToSave(DocumentTab *view, std::function<void(bool)> done, const QString &title)
{
    Document *document = view->model();
    if (!document->isModified()) {
        done(true);
        return;
    }
    setCurrentWidget(view);
    auto *box = new QMessageBox(QMessageBox::Question, title.isEmpty() ? tr("Close Document") : title,
                                tr("%1 has unsaved changes. Save them?").arg(document->displayName()),
                                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<DocumentTab> guard(view);
    connect(box, &QMessageBox::finished, this, [this, box, guard, done] {
        const QMessageBox::StandardButton answer = box->standardButton(box->clickedButton());
        if (!guard || answer == QMessageBox::Cancel || answer == QMessageBox::NoButton) {
            done(false);
        } else if (answer == QMessageBox::Save) {
            save(guard, false, done);
        } else {
            done(true);
        }
    });
    box->open();
}

void DocumentTabs::closeDocument(DocumentTab *view)
{
    QPointer<DocumentTab> guard(view);
    askToSave(view, [this, guard](bool mayClose) {
        if (mayClose && guard)
            removeTab(guard);
    });
}

void DocumentTabs::confirmCloseAll(const QString &title, std::function<void(bool)> done)
{
    // One question at a time, last tab first, as closing them one by one would ask.
    auto state = std::make_shared<CloseAll>();
    for (int i = count() - 1; i >= 0; --i) {
        if (tab(i)->model()->isModified())
            state->pending << tab(i);
    }
    state->done = std::move(done);
    state->title = title;
    if (state->pending.size() < 2) {
        askNext(state);
        return;
    }
    // Several: one question for all of them, as every editor asks.
    QStringList names;
    for (const QPointer<DocumentTab> &view : std::as_const(state->pending))
        names << view->model()->displayName();
    auto *box = new QMessageBox(QMessageBox::Question, title,
                                tr("%n documents have unsaved changes: %1. Save them?", nullptr, int(names.size()))
                                    .arg(QLocale().createSeparatedList(names)),
                                QMessageBox::SaveAll | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->button(QMessageBox::Discard)->setText(tr("&Discard All"));
    box->button(QMessageBox::SaveAll)->setText(tr("&Save All"));
    box->setDefaultButton(QMessageBox::SaveAll);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, state] {
        const QMessageBox::StandardButton answer = box->standardButton(box->clickedButton());
        if (answer == QMessageBox::SaveAll)
            saveNext(state);
        else
            state->done(answer == QMessageBox::Discard);
    });
    box->open();
}

void DocumentTabs::saveNext(const std::shared_ptr<CloseAll> &state)
{
    while (!state->pending.isEmpty() && !state->pending.constFirst())
        state->pending.removeFirst(); // closed meanwhile
    if (state->pending.isEmpty()) {
        state->done(true);
        return;
    }
    DocumentTab *view = state->pending.takeFirst();
    setCurrentWidget(view); // an untitled one asks where, in front of its own text
    save(view, false, [this, state](bool saved) {
        if (saved)
            saveNext(state);
        else
            state->done(false); // cancelled or failed: stay open, nothing lost
    });
}

void DocumentTabs::askNext(const std::shared_ptr<CloseAll> &state)
{
    while (!state->pending.isEmpty() && !state->pending.constFirst())
        state->pending.removeFirst(); // closed meanwhile
    if (state->pending.isEmpty()) {
        state->done(true);
        return;
    }
    askToSave(
        state->pending.takeFirst(),
        [this, state](bool mayClose) {
            if (mayClose)
                askNext(state);
            else
                state->done(false);
        },
        state->title);
}

void DocumentTabs::removeTab(DocumentTab *view)
{
    const int index = indexOf(view);
    if (index < 0)
        return;
    Document *document = view->model();
    emit documentClosing(document);
    document->removeRecoveryCopy();
    QTabWidget::removeTab(index);
    // The view goes first: it must never show a deleted document.
    view->deleteLater();
    document->deleteLater();
}

// --- recovery -------------------------------------------------------------------------------

void DocumentTabs::setRecoveryDirectory(const QString &directory)
{
    m_recoveryDirectory = directory;
    for (Document *document : documents())
        document->setRecoveryDirectory(directory);
}

void DocumentTabs::writeRecoveryCopies()
{
    // Each writes only when its text changed since its last copy.
    for (Document *document : documents())
        document->writeRecoveryCopy();
}

void DocumentTabs::removeRecoveryCopies()
{
    for (Document *document : documents())
        document->removeRecoveryCopy();
}

void DocumentTabs::offerRecovery(std::function<void(int)> done)
{
    QDir dir(m_recoveryDirectory);
    const QStringList files = m_recoveryDirectory.isEmpty()
                                  ? QStringList()
                                  : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Time);
    if (files.isEmpty()) {
        done(0);
        return;
    }
    // Which documents, by name and file, so the user knows what they are recovering.
    QStringList found;
    for (const QString &name : files) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject copy = QJsonDocument::fromJson(file.readAll()).object();
        const QString path = copy.value(QStringLiteral("path")).toString();
        const QString shown = copy.value(QStringLiteral("name")).toString();
        found << (path.isEmpty() ? tr("%1 (never saved)").arg(shown.isEmpty() ? tr("Untitled") : shown)
                                 : tr("%1 (%2)").arg(QFileInfo(path).fileName(), QDir::toNativeSeparators(path)));
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Recover Documents"),
                                tr("Headstart did not close properly last time. Recover %n unsaved document(s)?",
                                   nullptr, int(files.size())),
                                QMessageBox::Yes | QMessageBox::Discard, this);
    box->setInformativeText(found.join(QLatin1Char('\n')));
    box->setDefaultButton(QMessageBox::Yes);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, dir, files, done] {
        const QMessageBox::StandardButton answer = box->standardButton(box->clickedButton());
        if (answer != QMessageBox::Yes && answer != QMessageBox::Discard) {
            done(0); // closed without an answer: the copies stay for the next start
            return;
        }
        const bool recover = answer == QMessageBox::Yes;
        int restored = 0;
        for (const QString &name : files) {
            QFile file(dir.filePath(name));
            QJsonObject copy;
            if (recover && file.open(QIODevice::ReadOnly)) {
                copy = QJsonDocument::fromJson(file.readAll()).object();
                file.close();
            }
            // Removed before the recovered document writes its own copy: a document at the
            // same path writes to this very file name.
            QFile::remove(dir.filePath(name));
            if (!copy.contains(QStringLiteral("text")))
                continue;
            const QString text = copy.value(QStringLiteral("text")).toString();
            const QString path = copy.value(QStringLiteral("path")).toString();
            DocumentTab *view = nullptr;
            // Back into its own file (opened, or already open from the command line), so that
            // Save writes where the user was working; a file gone meanwhile gets a new tab.
            if (!path.isEmpty() && QFileInfo::exists(path) && openFile(path)) {
                view = currentTab();
                if (view->model()->filePath() != QFileInfo(path).absoluteFilePath())
                    view = nullptr;
            }
            if (view) {
                view->model()->setText(text);
                view->model()->setModified(true);
            } else {
                view = newDocument(text);
                view->model()->setTitle(copy.value(QStringLiteral("title")).toString());
            }
            view->model()->writeRecoveryCopy(); // the recovered text is unsaved again until saved
            ++restored;
        }
        done(restored);
    });
    box->open();
}

// --- recent files and errors ----------------------------------------------------------------

void DocumentTabs::setRecentMenu(QMenu *menu)
{
    m_recentMenu = menu;
    rebuildRecentMenu();
}

void DocumentTabs::addRecentFile(const QString &path)
{
    QSettings settings;
    AppSettings::addRecentFile(settings, path);
    rebuildRecentMenu();
}

void DocumentTabs::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    QSettings settings;
    const QStringList recent = AppSettings::recentFiles(settings);
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent.at(i);
        // The folder too: two notes.md from different projects must be told apart. The home
        // folder as ~, as file managers and shells show it; '&' doubled, or it is a mnemonic.
        QString folder = QDir::toNativeSeparators(QFileInfo(path).absolutePath());
        const QString home = QDir::toNativeSeparators(QDir::homePath());
        if (folder == home || folder.startsWith(home + QDir::separator()))
            folder = QLatin1Char('~') + folder.mid(home.size());
        auto escaped = [](QString text) { return text.replace(QLatin1Char('&'), QLatin1String("&&")); };
        QAction *act = m_recentMenu->addAction(
            tr("&%1 %2  (%3)").arg((i + 1) % 10).arg(escaped(QFileInfo(path).fileName()), escaped(folder)), this,
            [this, path] { openFile(path); });
        act->setToolTip(QDir::toNativeSeparators(path));
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void DocumentTabs::showError(const QString &title, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Gui
