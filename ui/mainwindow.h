#pragma once

#include <QMainWindow>
#include <QPointer>

class QAction;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Llm { class LlmStream; }
namespace Prefetch { class Generator; }

namespace Ui {

class AnswerPane;

// The main window: a document editor, the Summarize action that streams its answer into the
// answer pane, and Stop. Knows the engine only through Prefetch::Generator.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Prefetch::Generator *generator, QWidget *parent = nullptr);

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

private:
    void createActions();
    void updateProviderLabel();
    void updateRunningState();
    void openFileDialog();

    Prefetch::Generator *m_generator;
    QPlainTextEdit *m_editor;
    AnswerPane *m_answer;
    QPushButton *m_summarizeButton;
    QLabel *m_providerLabel;
    QLabel *m_stateLabel;
    QAction *m_open = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_summarize = nullptr;
    QAction *m_stop = nullptr;
    QPointer<Llm::LlmStream> m_current;
    QString m_filePath;
};

} // namespace Ui
