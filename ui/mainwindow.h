#pragma once

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QAction;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Prefetch {
class CompiledPrompt;
class Engine;
class HoverStrategy;
class ResponseStream;
class WarmupStrategy;
struct RenderedRequest;
} // namespace Prefetch

namespace Ui {

class AnswerPane;

// The main window: a document editor, the Summarize action that streams its answer into the
// answer pane, and Stop. Forwards what the user does to the prefetch strategies (resting on
// Summarize starts its answer; opening a document warms the provider's cache) and takes its
// answers from the engine; it holds no network code.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Prefetch::Engine *engine, Prefetch::HoverStrategy *hover, Prefetch::WarmupStrategy *warmup,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString &path);
    void setDocumentText(const QString &text);

    QPlainTextEdit *editor() const { return m_editor; }
    AnswerPane *answerPane() const { return m_answer; }
    QAction *summarizeAction() const { return m_summarize; }
    QAction *stopAction() const { return m_stop; }
    QPushButton *summarizeButton() const { return m_summarizeButton; }

public slots:
    void summarize();
    void stop();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    Prefetch::RenderedRequest summarizeRequest();
    const Prefetch::CompiledPrompt &compiledDocument();
    void warmUp();
    void createActions();
    void updateProviderLabel();
    void updateRunningState();
    void openFileDialog();

    Prefetch::Engine *m_engine;
    Prefetch::HoverStrategy *m_hover;
    Prefetch::WarmupStrategy *m_warmup;
    std::unique_ptr<Prefetch::CompiledPrompt> m_compiled; // the document's prompt, per revision
    int m_compiledRevision = -1;
    QPlainTextEdit *m_editor;
    AnswerPane *m_answer;
    QPushButton *m_summarizeButton;
    QLabel *m_providerLabel;
    QLabel *m_stateLabel;
    QAction *m_open = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_summarize = nullptr;
    QAction *m_stop = nullptr;
    QPointer<Prefetch::ResponseStream> m_current;
    QString m_filePath;
};

} // namespace Ui
