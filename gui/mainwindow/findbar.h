#pragma once

#include <QPointer>
#include <QTextDocument>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace Gui {

// Find and replace in a document, as a bar under it (not a dialog: the text stays visible and
// editable). Enter finds the next match, Shift+Enter the previous one, both wrap around; Esc
// closes the bar and gives the focus back to the document. Replace All is one undo step.
class FindBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QWidget *parent = nullptr);

    // The document searched; the bar follows the current tab.
    void setEditor(QPlainTextEdit *editor);
    QPlainTextEdit *editor() const { return m_editor; }

    // Shows the bar with the editor's selection (if one line) as the text to find.
    void showFind();
    void showReplace();

    bool findNext() { return find({}); }
    bool findPrevious() { return find(QTextDocument::FindBackward); }
    void replaceCurrent();
    int replaceAll();

    QLineEdit *findField() const { return m_find; }
    QLineEdit *replaceField() const { return m_replace; }
    QString statusText() const;

protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool find(QTextDocument::FindFlags direction);
    QTextDocument::FindFlags flags() const;
    bool selectionMatches() const;
    void open(bool withReplace);
    void closeBar();

    QPointer<QPlainTextEdit> m_editor;
    QLineEdit *m_find;
    QLineEdit *m_replace;
    QCheckBox *m_matchCase;
    QPushButton *m_replaceButton;
    QPushButton *m_replaceAllButton;
    QWidget *m_replaceRow;
    QLabel *m_status;
};

} // namespace Gui
