#pragma once

#include "gui/wizard/wizardgenerationpage.h"
#include "gui/wizard/wizardtitlepage.h"
#include "gui/wizard/wizardtopicpage.h"

#include "prefetch/prompts/prompttemplate.h"

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

namespace Llm {
struct StreamEvent;
}
namespace Prefetch {
class Engine;
class AnswerReader;
class WorkflowStrategy;
} // namespace Prefetch

class QMessageBox;

namespace Gui {

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
    // Cancel, Esc or the window's close: with a topic typed, asks before it is all discarded
    // (Cancel on the question, or Esc again, keeps the wizard as it was).
    void reject() override;

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
    qint64 m_activatedNs = -1;                                  // when Next was pressed, for the page it opens
    int m_prefetchedStep = -1; // what the workflow prefetches now, to not restart it needlessly
    QVariantMap m_prefetchedData;
    int m_regenerations = 0; // seeds for Regenerate with unchanged data, so it yields another text
    bool m_closed = false;   // done() ran: timers that fire late must not prefetch any more
    QPointer<QMessageBox> m_discardQuestion; // open while reject() asks
};

} // namespace Gui
