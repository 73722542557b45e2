#pragma once

#include "llm/error.h"
#include "llm/providerprofile.h"
#include "prefetch/prompts/prompttemplate.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>

class QTextDocument;

namespace Gui {

// One open document, apart from any view of it (KTextEditor's document/view split): its text,
// a revision that grows with every change, its file, modified state, crash-recovery copy and
// its compiled prompt. The editor tab shows it; the AI actions, the warm-up and the chat's
// document mode read it. No widgets: the text is a QTextDocument the editor tab attaches to.
//
// The prompt (system prompt + document: the static prefix every action, the chat about the
// document and the warm-up share) is compiled once per revision and provider target. Large
// documents compile in the thread pool, and `promptReady` says when; after an edit of a large
// document that was compiled before, it compiles again once the typing has paused, so the
// prompt is there when the pointer reaches an action. GUI thread.
class Document : public QObject
{
    Q_OBJECT

public:
    // Beyond this a plain-text editor becomes sluggish and a prompt exceeds any context window.
    static constexpr qint64 MaxDocumentBytes = 32 * 1024 * 1024;
    // From this many characters on, compiling and recovery writes run off the GUI thread.
    static constexpr qsizetype LargeDocumentChars = 256 * 1024;
    // A line this long is laid out by QTextLayout in time that grows with its square when it
    // has no place to break (minified JSON, base64 without '/', hex): measured at 15 ms for
    // 20,000 characters, 0.27 s for 100,000 and 26 s for a million, on every key press. A
    // document with such a line is wrapped anywhere instead of at word boundaries, which is
    // linear (0.25 s a million characters; docs/reliability.md, "Bounds").
    static constexpr qsizetype LongLineChars = 10'000;
    // Longer lines are refused: even wrapped anywhere, each key press in one lays it out again.
    static constexpr qsizetype MaxLineChars = 1024 * 1024;

    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    QTextDocument *textDocument() const { return m_text; }
    QString text() const;
    qsizetype characterCount() const;
    // Grows with every change of the text and is never reused (an undo is a new revision).
    quint64 revision() const { return m_revision; }
    bool isModified() const;
    void setModified(bool modified);
    // Nothing but white space. Cheap for any size: only short documents are scanned.
    bool isBlank() const;

    // Reads `path` (UTF-8): a regular file of at most MaxDocumentBytes with no line over
    // MaxLineChars. Returns an error message for the user on failure; the document is
    // unchanged then.
    std::optional<QString> load(const QString &path);
    std::optional<QString> saveTo(const QString &path);
    // A new document with no file: `id` keys it ("untitled-N", unique in the process; see
    // documentId()), `text` is its text, modified unless empty.
    void setUntitled(int id, const QString &text = {});
    // What an untitled document is called until it is saved: "Untitled N" (N = shownNumber:
    // the lowest number no other open document shows, so the first is "Untitled 1" whatever
    // was opened and closed before), or a title of its own (the welcome text, a wizard's
    // draft), which Save As then proposes as the file's name. A file's name wins once saved.
    void setShownNumber(int number);
    int shownNumber() const { return m_path.isEmpty() && m_title.isEmpty() ? m_shownNumber : 0; }
    void setTitle(const QString &title);
    QString title() const { return m_title; }
    // The name Save As proposes for a document with no file: the title or the display name,
    // without the characters file systems refuse, and ".md".
    QString proposedFileName() const;
    // Replaces the whole text (an undoable edit, as a paste of everything would be).
    void setText(const QString &text);

    // A line is longer than LongLineChars: views wrap anywhere, not at word boundaries.
    bool hasLongLines() const { return m_longLines; }

    QString filePath() const { return m_path; }
    // The encoding the file was read in and is saved in: "UTF-8" (also for a new document),
    // "UTF-16LE", "UTF-16BE" or "GB18030" (Knowledge::decodeText()).
    QByteArray encoding() const { return m_encoding; }
    // Saves in `encoding` from now on (one of those above): the document counts as modified
    // until it is saved so. The text is unchanged: this converts, it does not read anew.
    void setEncoding(const QByteArray &encoding);
    // Stable for the life of the document: the file path, or "untitled-N".
    QString documentId() const;
    QString displayName() const;

    // The compiled prompt for `profile` and the current revision, or nullptr while it is being
    // compiled (then promptReady follows) or when it cannot be compiled (see promptError()).
    const Prefetch::CompiledPrompt *compiledPrompt(const Llm::ProviderProfile &profile);
    // Why the current revision cannot be compiled for `profile`, if it was tried and failed.
    std::optional<Llm::Error> promptError(const Llm::ProviderProfile &profile) const;
    // Until its result is taken in on this thread: the worker may be done already, but nothing
    // here has seen it, so the prompt is not ready yet.
    bool isCompiling() const { return m_compiling; }

    // Crash recovery: a copy of unsaved text in `directory`, removed on save or close.
    void setRecoveryDirectory(const QString &directory);
    // Writes the copy when the text changed since the last write (large texts in the thread
    // pool), and removes it when the document is unmodified again. The autosave timer calls it.
    void writeRecoveryCopy();
    void removeRecoveryCopy();
    QString recoveryFile() const;
    // A recovery write is running in the thread pool.
    bool isWritingRecoveryCopy() const { return m_recoveryWrite.isRunning(); }

signals:
    void promptReady();
    void titleChanged();
    void modifiedChanged(bool modified);
    void recoveryCopyWritten();
    void longLinesChanged(bool longLines);

private:
    struct Compiled {
        Prefetch::CompiledPrompt prompt;
        std::optional<Llm::Error> error;
        quint64 revision = 0;
        Llm::ProviderTarget target;
    };

    struct LongestLine {
        qsizetype number = 0; // from 1
        qsizetype length = 0; // characters
    };
    static LongestLine longestLine(QStringView text);

    QByteArray encoded(const QString &text) const;
    void onContentsChanged();
    void onContentsChange(int position, int removed, int added);
    void setLongLines(bool longLines);
    void startCompile(const Llm::ProviderProfile &profile);

    QTextDocument *m_text; // child
    quint64 m_revision = 1;
    QString m_path;
    int m_untitledNumber = 0;
    QByteArray m_encoding = "UTF-8";
    int m_shownNumber = 0;
    QString m_title;
    bool m_longLines = false;

    std::optional<Compiled> m_compiled;
    std::optional<Llm::ProviderProfile> m_lastProfile; // what the settle timer compiles for
    QFutureWatcher<Compiled> m_compile;
    bool m_compiling = false;
    quint64 m_compileRevision = 0;
    Llm::ProviderTarget m_compileTarget;
    QTimer m_recompile;

    QString m_recoveryDirectory;
    quint64 m_recoveryRevision = 0; // the revision the copy on disk holds; 0: none written
    QFutureWatcher<bool> m_recoveryWrite;
    // Set when the copy is removed; a write still running in the pool then removes its file.
    std::shared_ptr<std::atomic<bool>> m_recoveryRemoved;
};

} // namespace Gui
