#pragma once

#include "gui/answer/streamfollower.h"

#include "prefetch/prompttemplate.h"

#include "llm/error.h"

#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QVariantMap>
#include <QWizard>
#include <QWizardPage>

#include <expected>
#include <optional>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace Llm { struct StreamEvent; }
namespace Prefetch {
class Engine;
class AnswerReader;
class WorkflowStrategy;
} // namespace Prefetch

namespace Gui {

// Page 1: topic, audience, tone and length. It reports `settled` when the user has paused
// typing for 350 ms or moved focus on: the moment the outline can be predicted.
class WizardTopicPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit WizardTopicPage(QWidget *parent = nullptr);

    QLineEdit *topicEdit() const { return m_topic; }
    QLineEdit *audienceEdit() const { return m_audience; }
    QComboBox *toneBox() const { return m_tone; }
    QComboBox *lengthBox() const { return m_length; }

    // The form as the prompts use it: trimmed text, and stable English keys for the choices
    // (the prompt must not change with the UI language).
    QString topic() const;
    QString audience() const;
    QString tone() const;
    QString length() const;

    bool isComplete() const override; // a topic is required
    // Next was pressed: a change still waiting for its pause is no longer worth predicting from.
    void cancelPendingSettle() { m_pause.stop(); }

signals:
    void settled();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onEdited();

    QLineEdit *m_topic;
    QLineEdit *m_audience;
    QComboBox *m_tone;
    QComboBox *m_length;
    QTimer m_pause;
};

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
        QString fieldLabel;  // with a mnemonic, e.g. "&Outline:"
        QString fieldName;   // accessible name of the text field
        QString placeholder;
        QString statusName;  // accessible name of the status line
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
    bool m_stale = false;
};

// Page 4: the title options stream into the text field (one per line); the user picks one in
// the Title box or types their own. Finish needs a title.
class WizardTitlePage : public WizardGenerationPage
{
    Q_OBJECT

public:
    WizardTitlePage(const Texts &texts, QWidget *parent = nullptr);

    QComboBox *titleBox() const { return m_title; }
    QString title() const;
    bool isComplete() const override;

private:
    void updateOptions(bool pickFirst);

    QComboBox *m_title;
    QStringList m_options;
};

// The "New document" wizard: topic & audience → outline → introduction → title options. When
// a step is complete enough to predict the next one (page 1 settled; a generation finished or
// an edit of it settled), the next step's generation is prefetched through the workflow
// strategy, and Next takes it over, so it appears at once. Finish emits documentCreated with
// the document as Markdown; Cancel or close stops everything the wizard started. Holds no
// network code. GUI thread.
class NewDocumentWizard : public QWizard
{
    Q_OBJECT

public:
    // Page ids are the workflow's step numbers.
    enum Step { TopicStep = 1, OutlineStep = 2, IntroductionStep = 3, TitleStep = 4 };

    NewDocumentWizard(Prefetch::Engine *engine, Prefetch::WorkflowStrategy *workflow, QWidget *parent = nullptr);
    ~NewDocumentWizard() override;

    WizardTopicPage *topicPage() const { return m_topicPage; }
    WizardGenerationPage *outlinePage() const { return m_outlinePage; }
    WizardGenerationPage *introductionPage() const { return m_introductionPage; }
    WizardTitlePage *titlePage() const { return m_titlePage; }
    WizardGenerationPage *generationPage(int step) const;

    // Exactly the data step `step`'s prompt is built from, as the form holds it now.
    QVariantMap formData(int step) const;
    // The prompt of step `step` (2..4) built from `data` alone.
    static QString stepPrompt(int step, const QVariantMap &data);
    // The request for step `step`: the wizard template compiled for the engine's provider.
    std::expected<Prefetch::RenderedRequest, Llm::Error> stepRequest(int step, const QVariantMap &data,
                                                                     std::optional<qint64> seed = {}) const;

    // What Finish creates from the form as it is now.
    QString documentTitle() const;
    QString documentMarkdown() const;
    // One item per line, or per sentence when the text is a single line; list markers,
    // numbering and quotes removed.
    static QStringList splitItems(const QString &text);

    bool validateCurrentPage() override;
    void initializePage(int id) override;
    void done(int result) override;

signals:
    void documentCreated(const QString &title, const QString &markdown);
    // Step `step` is complete enough to predict the next one, and workflow->stepCompleted()
    // was called; `prefetching` says whether the engine took the prefetch (it may be off).
    void stepCompleted(int step, bool prefetching);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void completeStep(int step);
    void generate(int step, qint64 activatedNs, bool regenerate);
    void stopEverything();

    QPointer<Prefetch::Engine> m_engine;
    QPointer<Prefetch::WorkflowStrategy> m_workflow;
    WizardTopicPage *m_topicPage;
    WizardGenerationPage *m_outlinePage;
    WizardGenerationPage *m_introductionPage;
    WizardTitlePage *m_titlePage;
    mutable std::optional<Prefetch::CompiledPrompt> m_compiled; // per provider, see stepRequest()
    qint64 m_activatedNs = -1; // when Next was pressed, for the page it opens
    int m_prefetchedStep = -1; // what the workflow prefetches now, to not restart it needlessly
    QVariantMap m_prefetchedData;
    int m_regenerations = 0; // seeds for Regenerate with unchanged data, so it yields another text
    bool m_closed = false;   // done() ran: timers that fire late must not prefetch any more
};

} // namespace Gui
