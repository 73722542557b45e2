#pragma once

#include <QObject>

class QAbstractScrollArea;
class QSplitter;
class QToolButton;
class QWidget;

namespace Gui {

// Whether the list of conversations shows above the chat. Until the user chooses with the list
// button, it shows where the chat keeps ten lines of conversation beside it at its smallest
// (the suggested follow-ups' row counted whether shown or not, so the list does not come and go
// with each answer); it folds when the chat's controls grow and unfolds only when the dock does.
// The user's choice (the button: clicked, with the mouse or Space) holds from then on, in every
// window and the next session (the setting "chat/conversationList"). GUI thread.
class ChatListFold : public QObject
{
    Q_OBJECT

public:
    struct Parts {
        QWidget *dock;                   // its resizes refit the list
        QSplitter *splitter;             // the list above the chat panel
        QWidget *list;                   // what folds
        QWidget *panel;                  // the chat: header, transcript, input
        QAbstractScrollArea *transcript; // the ten lines
        QWidget *input;                  // the lines are its font's; focused when the list folds
        QWidget *followUps;              // the row that comes and goes
        QWidget *search;                 // focused when the user unfolds the list
        QToolButton *toggle;             // the list button, checkable
    };

    explicit ChatListFold(const Parts &parts, QObject *parent = nullptr);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum class Choice { Fit, Shown, Hidden };
    void setShown(bool shown);
    // `mayShow` false: only folds it (the chat's controls grew), never unfolds it.
    void fit(bool mayShow);

    Parts m_parts;
    Choice m_choice = Choice::Fit;
};

} // namespace Gui
