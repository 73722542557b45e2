#pragma once

#include "gui/answer/streamfollower.h"

#include "llm/error.h"

#include <QPointer>
#include <QTimer>
#include <QVariantMap>
#include <QWizardPage>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Prefetch {
class AnswerReader;
} // namespace Prefetch

namespace Gui {

// A page whose text the model writes: the answer streams into an editable field, with
// Regenerate, Stop, time to first token, whether it was prefetched, and errors. The user may
// edit the result, or type it by hand when generation failed. The wizard decides what to
// generate; the page shows it and reports what the user did.
class WizardGenerationPage : public QWizardPage
{
    Q_OBJECT

public:
    struct Texts {
        QString title;
        QString subTitle;
        QString fieldLabel; // with a mnemonic, e.g. "&Outline:"
        QString fieldName;  // accessible name of the text field
        QString placeholder;
        QString statusName; // accessible name of the status line
    };

    explicit WizardGenerationPage(const Texts &texts, QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QPushButton *regenerateButton() const { return m_regenerate; }
    QPushButton *stopButton() const { return m_stop; }
    QString text() const; // what is shown, plus tokens not painted yet
    QString statusText() const;

    bool isGenerating() const;
    // The current text was (being) generated or typed: going Back and Next keeps it.
    bool hasResult() const;
    // The form data the current text was generated from (empty before the first generation).
    const QVariantMap &sourceData() const { return m_sourceData; }
    bool isUserEdited() const { return m_userEdited; }
    // The last answer was taken over from a prefetch.
    bool isPrefetched() const { return m_prefetched; }
    // Activation (Next, Regenerate) to first token painted, in ms; -1 before it.
    double perceivedLatencyMs() const { return m_follower.perceivedLatencyMs(); }
    bool isStale() const { return m_stale; }

    // Shows `stream` from now on, replacing the text; `data` is what it was generated from.
    void follow(Prefetch::AnswerReader *stream, const QVariantMap &data);
    void stop();
    // The request could not even be built (no model configured, ...).
    void showError(const QString &message);
    // The earlier steps changed since the user edited this text: keep it, offer Regenerate.
    void setStale(bool stale);
    // Next was pressed: an edit still waiting for its pause is no longer worth predicting from.
    void cancelPendingEdit() { m_editPause.stop(); }

    bool isComplete() const override;

signals:
    void regenerateRequested();
    void generationEnded(bool ok);
    void firstTokenShown(double perceivedMs);
    // The user changed the text (each change).
    void userEdited();
    // The user changed the text and then paused 350 ms or left the field.
    void editSettled();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    // Room for page-specific rows under the text field.
    void addRow(QWidget *label, QWidget *field);

private:
    void onFinished(Llm::FinishReason reason);
    void onFailed(const Llm::Error &error);
    void onContentsChanged();
    void endStream();
    void setStatus(const QString &text, bool isError = false);
    QString firstTokenSentence() const;

    QPlainTextEdit *m_editor;
    QLabel *m_status;
    QPushButton *m_regenerate;
    QPushButton *m_stop;
    QFormLayout *m_extraRows;
    StreamFollower m_follower;
    QTimer m_editPause;
    QPointer<Prefetch::AnswerReader> m_stream; // non-null while generating
    QVariantMap m_sourceData;
    bool m_applyingStream = false; // text changes now come from the stream, not the user
    bool m_userEdited = false;
    bool m_prefetched = false;
    bool m_ready = false; // prefetched, and its first token was there at Next
    bool m_stale = false;
};

} // namespace Gui
