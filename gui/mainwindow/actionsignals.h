#pragma once

#include "prefetch/prompts/actionprompts.h"

#include <QHash>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QRectF>

#include <functional>
#include <optional>

class QKeyEvent;
class QMouseEvent;

namespace Prefetch {
class Speculator;
}

namespace Gui {

class Document;
class DocumentTab;
class MainWindow;

// Forwards what the user does in the main window to the prefetch strategies that listen to the
// pointer and the keys. It is the one event filter over the window's action buttons.
//
// To the hover strategy, through the window's DocumentActions: the pointer entering an enabled
// action button (its answer starts after the hover delay), leaving it (cancelled), pressing it
// (started at once), with the document and selection of that moment. DocumentActions resumes a
// hover that came while the document's prompt was still compiling.
//
// To the Speculator, when there is one, the way the early signals come: the pointer's motion
// over the whole window (the trajectory needs the approach, not only the arrival) with the
// action buttons' rectangles, in the window's coordinates; a selection in the current
// document's editor; Tab focus on an action button; Ctrl+Alt (the actions' shortcut modifiers)
// held down; a document opened or made current; an action run and its answer ended; Stop. It
// keeps the Speculator's context (the builder for the current document and selection) current
// and tells it when that context changed (an edit, a selection, another tab or provider), so
// that a guess for what no longer is gets cancelled.
//
// It decides nothing itself: the strategies guess, the engine checks switches, consent and
// budget. GUI thread; a child of the window it watches. The strategies belong to the
// composition root and outlive the window; with several windows the Speculator follows the one
// the user acts in (holds()), the hover the button under the pointer.
class ActionSignals : public QObject
{
    Q_OBJECT

public:
    // `speculator` may be null: then only the hover is fed.
    ActionSignals(MainWindow *window, Prefetch::Speculator *speculator);
    ~ActionSignals() override;

    // What the actions' requests are made of changed (the provider, the translation target):
    // every guess is for a request that will not be asked.
    void requestsChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void forwardToSpeculator(QObject *watched, QEvent *event);
    void forwardToHover(QObject *watched, const QEvent *event);
    void watchTab(DocumentTab *tab);
    // setContext() from the current tab: its document (none while blank) and its selection.
    void updateContext();
    void contextChanged();
    void currentDocumentChanged();
    void onSelectionChanged(DocumentTab *tab);
    void onPromptReady(Document *document);
    void onPointerMoved(const QMouseEvent *event);
    void updateTargets();
    void onKey(const QKeyEvent *event);
    // The selection is finished once neither the mouse button nor Shift that made it is down.
    void selectionMayBeFinished();
    void setModifiersHeld(bool held);
    std::optional<Prefetch::DocumentAction> buttonAction(const QObject *object) const;
    bool isInWindow(const QObject *object) const;
    // Several windows may share one Speculator; it guesses for the one the user acts in (the
    // pointer moves, a key is pressed or the window is activated there), and only that one's
    // ActionSignals keeps the context. holds() is true for it, and for the only window.
    bool holds() const;
    void take();

    MainWindow *m_window;               // the parent
    Prefetch::Speculator *m_speculator; // may be null
    QHash<Prefetch::DocumentAction, QRectF> m_targets;
    std::optional<QPointF> m_pointer;                  // the last position forwarded
    std::optional<Prefetch::DocumentAction> m_focused; // the button Tab walked onto
    bool m_modifiersHeld = false;
    struct Selection {
        QPointer<DocumentTab> tab;
        int anchor = -1, position = -1;
        bool operator==(const Selection &) const = default;
    };
    Selection m_selection;                                // the last one forwarded
    bool m_shiftHeld = false;                             // Shift+arrows are still selecting
    bool m_mouseHeld = false;                             // a drag may still be selecting
    std::optional<Prefetch::DocumentAction> m_lastAction; // the action whose answer is shown
    // Opened while its prompt compiled (a large document): it counts as opened once it is ready.
    QPointer<Document> m_openedWhileCompiling;
};

} // namespace Gui
