#pragma once

#include <QPointer>
#include <QStringList>
#include <QTabWidget>
#include <QTimer>

#include <functional>
#include <memory>

class QMenu;

namespace Gui {

class Document;
class DocumentTab;

// The open documents, one tab each: creating, opening, saving and closing them (asking before
// unsaved text is lost), their crash-recovery copies (written every few seconds while they
// change, offered at the next start) and the recent-files menu. Owns the documents: each is
// deleted after its tab. Every question and file dialog is window-modal and asynchronous
// (open() with a handler), so answers keep streaming while one is up. GUI thread.
class DocumentTabs : public QTabWidget
{
    Q_OBJECT

public:
    explicit DocumentTabs(QWidget *parent = nullptr);
    ~DocumentTabs() override;

    DocumentTab *tab(int index) const;
    DocumentTab *currentTab() const;
    Document *currentDocument() const;
    QList<Document *> documents() const;

    DocumentTab *newDocument(const QString &text = {});
    // Opens `path` in a tab (or selects its tab). False, with an error message shown, when it
    // cannot be read.
    bool openFile(const QString &path);
    // Opens `text` as an unmodified document with no file, called `title` (Document::setTitle):
    // the welcome text. Save As proposes the title as its name.
    DocumentTab *openText(const QString &title, const QString &text);
    void openWithDialog();
    // `done(saved)` once saved, or once the user cancelled the file dialog or saving failed.
    void save(DocumentTab *tab, bool askForPath, std::function<void(bool saved)> done = {});
    // Closes the tab, after asking when it has unsaved text.
    void closeDocument(DocumentTab *tab);
    // Asks for every tab with unsaved text in turn; `done(true)` when all may close. `title`
    // names what the user is doing ("Quit", "Close Window") on the questions.
    void confirmCloseAll(const QString &title, std::function<void(bool mayClose)> done);

    // Where crash-recovery copies go; empty disables them.
    void setRecoveryDirectory(const QString &directory);
    // Offers to restore the copies a previous session left behind; `done(restored)`.
    void offerRecovery(std::function<void(int restored)> done);
    // A copy of every document changed since its last copy (what the autosave timer does).
    void writeRecoveryCopies();
    void removeRecoveryCopies();

    // The File menu's "Open Recent" submenu, kept up to date from the settings.
    void setRecentMenu(QMenu *menu);

signals:
    void tabCreated(Gui::DocumentTab *tab);
    // A file was read into it (a new tab, or the untouched empty one it replaced).
    void documentLoaded(Gui::Document *document);
    // About to go: its tab is still there.
    void documentClosing(Gui::Document *document);
    void documentEdited(Gui::Document *document);
    void promptReady(Gui::Document *document);
    void titlesChanged();
    void statusMessage(const QString &message, int timeoutMs);

private:
    void removeTab(DocumentTab *tab);
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void showError(const QString &title, const QString &message);
    // The current tab when it holds nothing yet (no file, no title, no text, unmodified): what
    // openFile() and openText() fill rather than leaving it behind; null otherwise.
    DocumentTab *untouchedEmptyTab() const;
    // `title`: the question's, what the user is doing (empty: "Close Document").
    void askToSave(DocumentTab *tab, std::function<void(bool mayClose)> done, const QString &title = {});
    struct CloseAll {
        QList<QPointer<DocumentTab>> pending;
        std::function<void(bool)> done;
        QString title;
    };
    void askNext(const std::shared_ptr<CloseAll> &state);
    void saveNext(const std::shared_ptr<CloseAll> &state);

    QTimer m_autosave;
    QString m_recoveryDirectory;
    QMenu *m_recentMenu = nullptr;
};

} // namespace Gui
