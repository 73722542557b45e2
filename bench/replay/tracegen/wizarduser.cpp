#include "wizarduser.h"

#include "session.h"

namespace Bench::Gen {

const WizardSessionParams WizardSession{
    .description = "Three runs of the new-document wizard (topic form, outline, introduction, title), "
                   "with the form typed at about 52 WPM, each generated step read before Next, some outlines "
                   "edited; one run is cancelled midway.",
    .pointer = &MouseUser,
    // The brief: 2–3 runs, one of them cancelled midway. Two (one cancelled) take under the
    // two minutes a trace should last, so three.
    .runs = {3, 3},
    // Assumption: half open the wizard by its shortcut, half from the File menu.
    .shortcutStartChance = 0.5,
    // Assumption: a few seconds to decide on a topic.
    .startToTyping = {2500, 0.5, 800, 10000},
    // Assumption: Tab or a click, and a moment to think about the answer.
    .fieldToField = {900, 0.4, 250, 4000},
    .clickFieldChance = 0.5,
    // Assumption: most users keep a default, some change it.
    .changeToneChance = 0.5,
    .changeLengthChance = 0.4,
    .comboChoice = {1500, 0.4, 600, 5000},
    // Assumption: a moment between the end of reading and the move to Next (the move itself is
    // Fitts's law's), or Alt+N.
    .beforeNext = {300, 0.5, 100, 2500},
    .altNChance = 0.3,
    // The hosted profile: ~750 ms to the first token (localprovider), ~40 tokens/s; the brief:
    // a step generates up to 400 tokens, the title step 120.
    .firstTokenMs = 750,
    .tokensPerSecond = 40,
    .stepTokens = 400,
    .titleTokens = 120,
    // The brief: the outline is read for 8–20 s.
    .readStep = {11000, 0.3, 8000, 20000},
    // Assumption: a title is read in a few seconds.
    .readTitle = {3000, 0.4, 1500, 8000},
    // Assumption: half of the outlines get a line added, a fifth of the introductions a
    // sentence; the user rereads the edit for a second or two.
    .editOutlineChance = 0.5,
    .editIntroductionChance = 0.2,
    .afterEdit = {1500, 0.5, 400, 5000},
    // Assumption: the abandoned run is given up within seconds to half a minute of the step.
    .cancelAfter = {7000, 0.5, 2000, 25000},
    .escapeCancelChance = 0.5,
    // Assumption: a look at the new document before starting the next one.
    .betweenRuns = {4000, 0.5, 1500, 15000},
    .typing = DhakalTyping,
};

namespace {

const QStringList WizardTopics = {QStringLiteral("Prompt caching in desktop apps"),
                                  QStringLiteral("Our spring product launch"),
                                  QStringLiteral("Saving energy at the office"),
                                  QStringLiteral("A beginner's guide to city gardening"),
                                  QStringLiteral("Why we moved to remote-first work"),
                                  QStringLiteral("Onboarding checklist for new hires"),
                                  QStringLiteral("Quarterly results for the sales team"),
                                  QStringLiteral("How to run a good code review"),
                                  QStringLiteral("Planning a team offsite"),
                                  QStringLiteral("Writing clear release notes")};
const QStringList WizardAudiences = {QStringLiteral("new engineers"),       QStringLiteral("customers"),
                                     QStringLiteral("the leadership team"), QStringLiteral("students"),
                                     QStringLiteral("a general audience"),  QStringLiteral("volunteers"),
                                     QStringLiteral("our sales team")};
const QStringList WizardTones = {QStringLiteral("neutral"), QStringLiteral("friendly"), QStringLiteral("formal"),
                                 QStringLiteral("persuasive"), QStringLiteral("playful")};
const QStringList WizardLengths = {QStringLiteral("short"), QStringLiteral("medium"), QStringLiteral("long")};
const QStringList OutlineAdditions = {QStringLiteral("\n- A section with real examples"),
                                      QStringLiteral("\n- Costs and risks"), QStringLiteral("\n- What we learned"),
                                      QStringLiteral("\n- Next steps and owners"), QStringLiteral("\n- A short FAQ")};
const QStringList IntroductionAdditions = {QStringLiteral(" We wrote this after a year of trying both ways."),
                                           QStringLiteral(" It takes about ten minutes to read."),
                                           QStringLiteral(" Questions are welcome at the end.")};

class WizardUser
{
public:
    WizardUser(Session &s, const WizardSessionParams &p)
        : m_s(s)
        , m_p(p)
        , m_rng(s.rng)
        , m_layout(drawLayout(s.rng, 0.75))
        , m_pointer(s, m_layout, *p.pointer)
    {
    }

    void play();

private:
    // A click on a rect: the pointer goes there, presses and releases; `event` (if any) is written
    // at the release.
    void click(const Rect &target, const char *event = nullptr, std::initializer_list<Field> fields = {});
    void start();

    Session &m_s;
    const WizardSessionParams &m_p;
    Random &m_rng;
    const Layout m_layout;
    Pointer m_pointer;
};

void WizardUser::click(const Rect &target, const char *event, std::initializer_list<Field> fields)
{
    m_pointer.acquire(target);
    m_s.t += 40 + m_rng.below(120);
    m_s.t += m_rng.draw({80, 0.25, 40, 150});
    if (event)
        m_s.write(event, fields);
}

void WizardUser::start()
{
    if (m_rng.chance(m_p.shortcutStartChance)) {
        chord(m_s, ShortcutModifiers, {QStringLiteral("ctrl"), QStringLiteral("shift")},
              [&] { m_s.write("wizard_start"); });
    } else {
        // File, then "New from Wizard…" two items down.
        const int bar = m_layout.buttons[0].y;
        click({4, 2, 40, std::max(12, bar / 2 - 4)});
        m_s.t += 200 + m_rng.below(400); // finding the item
        click({4, bar / 2 + 2 * m_layout.buttons[0].h, 180, m_layout.buttons[0].h - 4}, "wizard_start");
    }
    m_pointer.setBlocked(true);         // modal: the main window's buttons get no hover
    m_s.focus(QStringLiteral("other")); // the topic field
}

void WizardUser::play()
{
    writeLayout(m_s, m_layout);
    m_pointer.place(m_layout.answer.shrunk(m_layout.answer.h / 4).pointIn(m_rng));
    const int runs = m_rng.between(m_p.runs);
    const int cancelledRun = m_rng.below(runs);
    const int cancelAtStep = 2 + m_rng.below(2); // while the outline or the introduction is shown
    m_s.t = std::max(m_s.t, qint64(300 + m_rng.below(700)));

    for (int run = 0; run < runs; ++run) {
        if (run > 0)
            m_pointer.rest(m_rng.draw(m_p.betweenRuns));
        start();
        const QString topic = m_rng.pick(WizardTopics);
        QString audience;
        QString tone = QStringLiteral("neutral");
        QString length = QStringLiteral("medium");
        auto field = [&] {
            m_s.write("wizard_field", {num("step", 1), object("data", {str("topic", topic), str("audience", audience),
                                                                       str("tone", tone), str("length", length)})});
        };
        auto toField = [&](int row) {
            const qint64 think = m_rng.draw(m_p.fieldToField);
            if (m_rng.chance(m_p.clickFieldChance))
                click(m_layout.wizardField(row));
            m_pointer.rest(std::max<qint64>(0, think - 300));
        };
        // One draw per statement: the operands of + are evaluated in no fixed order, and the
        // random numbers must be drawn in the same order by every compiler.
        m_pointer.rest(m_rng.draw(m_p.startToTyping));
        m_s.t += typingTime(m_rng, m_p.typing, topic);
        field();
        const QString typedAudience = m_rng.pick(WizardAudiences);
        toField(1);
        m_s.t += typingTime(m_rng, m_p.typing, typedAudience);
        audience = typedAudience;
        field();
        auto combo = [&](int row) {
            const qint64 choose = m_rng.draw(m_p.comboChoice);
            const qint64 until = m_s.t + choose;
            click(m_layout.wizardField(row)); // opens the list
            const Rect item = m_layout.wizardField(row);
            click({item.x, item.y + item.h * (1 + m_rng.below(4)), item.w, item.h});
            m_s.t = std::max(m_s.t, until);
        };
        if (m_rng.chance(m_p.changeToneChance)) {
            combo(2);
            tone = WizardTones.at(1 + m_rng.below(int(WizardTones.size()) - 1));
            field();
        }
        if (m_rng.chance(m_p.changeLengthChance)) {
            combo(3);
            QStringList others = WizardLengths;
            others.removeAll(length);
            length = m_rng.pick(others);
            field();
        }

        auto next = [&](const char *event, std::initializer_list<Field> fields) {
            m_pointer.rest(m_rng.draw(m_p.beforeNext));
            if (qstrcmp(event, "wizard_next") == 0 && m_rng.chance(m_p.altNChance))
                chord(m_s, ShortcutModifiers, {QStringLiteral("alt")}, [&] { m_s.write(event, fields); });
            else
                click(m_layout.wizardButton(1), event, fields);
        };
        bool cancelled = false;
        for (int step = 2; step <= 4; ++step) {
            next("wizard_next", {num("step", step)});
            const qint64 opened = m_s.t;
            if (run == cancelledRun && step == cancelAtStep) {
                const qint64 cancelAt = opened + m_rng.draw(m_p.cancelAfter);
                if (m_rng.chance(m_p.escapeCancelChance)) {
                    m_pointer.rest(cancelAt - m_s.t);
                    m_s.write("wizard_cancel");
                } else {
                    m_pointer.rest(std::max<qint64>(0, cancelAt - 900 - m_s.t));
                    click(m_layout.wizardButton(2), "wizard_cancel");
                }
                cancelled = true;
                break;
            }
            const int tokens = step == 4 ? m_p.titleTokens : m_p.stepTokens;
            const qint64 generation = m_p.firstTokenMs + qint64(tokens) * 1000 / m_p.tokensPerSecond;
            m_pointer.rest(generation + m_rng.draw(step == 4 ? m_p.readTitle : m_p.readStep));
            const double editChance = step == 2 ? m_p.editOutlineChance : step == 3 ? m_p.editIntroductionChance : 0;
            if (m_rng.chance(editChance)) {
                const QString added = m_rng.pick(step == 2 ? OutlineAdditions : IntroductionAdditions);
                toField(4); // into the step's text
                m_s.t += typingTime(m_rng, m_p.typing, added);
                m_s.write("wizard_edit", {num("step", step), str("append", added)});
                m_pointer.rest(m_rng.draw(m_p.afterEdit));
            }
        }
        if (!cancelled)
            next("wizard_finish", {});
        m_pointer.setBlocked(false);
        // Finish opens the new document in a tab, which takes the focus.
        if (!cancelled)
            m_s.focus(QStringLiteral("document"));
    }
    m_s.t += 1000;
}

} // namespace

void playWizard(Session &s, const WizardSessionParams &p)
{
    WizardUser(s, p).play();
}

} // namespace Bench::Gen
