#pragma once

#include <QLabel>
#include <QPointer>

namespace Prefetch {
class Speculator;
}

namespace Gui {

// The metrics panel's line on what the selection guess learnt (issue 40), in plain words: how
// often an action followed the user's selections lately, and at the last selection how likely
// the likeliest action was against the chance it needs to pay for its guess, and whether it was
// guessed. Hidden until there is something to say; follows Speculator::habitsChanged and
// selectionDecided. GUI thread.
class SelectionLearningLine : public QLabel
{
    Q_OBJECT

public:
    explicit SelectionLearningLine(QWidget *parent = nullptr);

    void setSpeculator(Prefetch::Speculator *speculator);
    void refresh();

private:
    QPointer<Prefetch::Speculator> m_speculator;
};

} // namespace Gui
