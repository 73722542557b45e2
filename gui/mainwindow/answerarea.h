#pragma once

#include "prefetch/prompts/actionprompts.h"

#include <QHash>
#include <QMap>
#include <QWidget>

#include <optional>

class QAction;
class QPushButton;
class QStackedWidget;

namespace Gui {

class AnswerPane;
class Document;
class DocumentTab;

// The answer side of the window: the document actions' buttons above, one AnswerPane per
// document tab in the middle (each keeps its own answer, status line and the action that
// produced it; a spare pane shows while no document is open), and the buttons that use the
// answer below. The buttons trigger the window's actions and follow their enabled state; a
// button whose answer is already on its way wears a small mark.
class AnswerArea : public QWidget
{
    Q_OBJECT

public:
    struct AnswerActions {
        QAction *insert = nullptr;
        QAction *replace = nullptr;
        QAction *copy = nullptr;
        QAction *regenerate = nullptr;
    };

    AnswerArea(const QMap<Prefetch::DocumentAction, QAction *> &actions, const AnswerActions &answerActions,
               QWidget *parent = nullptr);

    // A pane for `tab`, shown when it is current; it goes (an answer streaming into it stops)
    // with the tab.
    void addTab(DocumentTab *tab);
    // Shows `tab`'s pane, or the spare one for none.
    void showPaneOf(const DocumentTab *tab);
    // The pane shown.
    AnswerPane *current() const { return m_current; }
    // `document`'s pane, or the spare one when no tab shows it.
    AnswerPane *paneOf(const Document *document) const;
    QList<AnswerPane *> panes() const;

    // `action`'s answer goes to `pane` (which names it above the answer): what Regenerate asks
    // again there.
    void setAction(AnswerPane *pane, Prefetch::DocumentAction action);
    std::optional<Prefetch::DocumentAction> actionOf(const AnswerPane *pane) const;

    // Marks `action`'s button while its answer is ready behind it, or takes the mark off.
    void setReady(Prefetch::DocumentAction action, bool ready);

    QPushButton *actionButton(Prefetch::DocumentAction action) const { return m_buttons.value(action); }
    QPushButton *insertButton() const { return m_insertButton; }
    QPushButton *replaceButton() const { return m_replaceButton; }

signals:
    // The pane shown changed (a tab was switched to, or the shown one closed).
    void currentChanged();
    // Any pane's: AnswerPane::answerEnded, AnswerPane::firstTokenPainted.
    void answerEnded(bool ok);
    void firstTokenPainted();

private:
    QWidget *createActionPanel();
    void connectPane(AnswerPane *pane);

    QMap<Prefetch::DocumentAction, QAction *> m_actions;
    QMap<Prefetch::DocumentAction, QPushButton *> m_buttons;
    QStackedWidget *m_stack;
    AnswerPane *m_noDocumentPane;
    AnswerPane *m_current;
    QHash<const DocumentTab *, AnswerPane *> m_panes;
    QHash<const AnswerPane *, Prefetch::DocumentAction> m_paneActions;
    QPushButton *m_insertButton = nullptr;
    QPushButton *m_replaceButton = nullptr;
};

} // namespace Gui
