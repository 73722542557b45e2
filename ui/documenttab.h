#pragma once

#include "prefetch/prompttemplate.h"

#include <QFutureWatcher>
#include <QPlainTextEdit>

#include <memory>
#include <optional>

namespace Gui {

// One open document: its text, file, modified state, crash-recovery copy and compiled prompt.
//
// The prompt (system prompt + document, the static prefix every AI action and the warm-up
// share) is compiled once per revision and provider; large documents are compiled on a worker
// thread and `promptReady` says when. Saving goes through QSaveFile, so a crash mid-save never
// leaves a truncated file. GUI thread.
class DocumentTab : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit DocumentTab(QWidget *parent = nullptr);
    ~DocumentTab() override;

    // Beyond this a plain-text editor becomes sluggish and a prompt exceeds any context window.
    static constexpr qint64 MaxDocumentBytes = 32 * 1024 * 1024;

    // Reads `path` (UTF-8). Returns an error message for the user on failure; the tab is unchanged then.
    std::optional<QString> load(const QString &path);
    std::optional<QString> saveTo(const QString &path);
    void setUntitled(int number, const QString &text = {});

    QString filePath() const { return m_path; }
    // Stable for the life of the tab: the file path, or "untitled-N".
    QString documentId() const;
    QString displayName() const;
    bool isModified() const { return document()->isModified(); }
    // Nothing but white space. Cheap for any size: only short documents are scanned.
    bool isBlank() const;

    // The compiled prompt for `profile` and the current revision, or nullptr while it is being
    // compiled (then promptReady follows) or when it cannot be compiled.
    const Prefetch::CompiledPrompt *compiledPrompt(const Llm::ProviderProfile &profile);

    // Crash recovery: a copy of unsaved text in `directory`, written at most every few seconds
    // while modified and removed on save or close.
    void setRecoveryDirectory(const QString &directory);
    void writeRecoveryCopy();
    void removeRecoveryCopy();
    QString recoveryFile() const;

signals:
    void promptReady();
    void titleChanged();

private:
    void startCompile(const Llm::ProviderProfile &profile);

    QString m_path;
    int m_untitledNumber = 0;
    QString m_recoveryDirectory;
    std::unique_ptr<Prefetch::CompiledPrompt> m_prompt;
    int m_promptRevision = -1;
    QString m_promptProvider;
    QFutureWatcher<Prefetch::CompiledPrompt> m_compile;
    int m_compileRevision = -1;
};

} // namespace Gui
