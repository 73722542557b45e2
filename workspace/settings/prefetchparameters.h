#pragma once

#include "prefetch/settings.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <span>

class QSettings;

namespace Gui {

// One tunable of Prefetch::Settings: its settings key, how users see it and its valid range.
// The table of them drives loading, saving, comparing and the dialog's Prefetch page, so a
// parameter cannot be persisted without being validated and shown, or the other way round.
struct PrefetchParameter {
    enum class Kind { Bool, Integer, Real };
    // How the value is shown; durations are stored in milliseconds whatever they show in.
    enum class Unit {
        None,
        Milliseconds,
        Seconds,
        Minutes,
        Tokens,
        Characters,
        Requests,
        Samples,
        Ratio,
        Percent,
        Pixels,
        Money /* the provider's currency */
    };
    enum class Group {
        Warmup,
        Hover,
        Debounce,
        Workflow,
        Speculation,
        Trajectory,
        Selection,
        Keyboard,
        Reading,
        Habits,
        Limits,
        Etiquette,
        Alarms,
        Metrics,
        Routing,
        Cache
    };

    const char *key; // in the settings file, e.g. "prefetch/hover/delayMs"
    Group group;
    Kind kind;
    Unit unit;
    double min; // in the stored unit (ms for durations, 0..1 for ratios)
    double max;
    const char *name;    // for messages, e.g. "hover delay" (QT_TRANSLATE_NOOP, context Gui::AppSettings)
    const char *label;   // the form label with its mnemonic, e.g. "&Delay:"
    const char *toolTip; // may be empty
    double (*get)(const Prefetch::Settings &);
    void (*set)(Prefetch::Settings &, double);
};

// The table of every PrefetchParameter, and what it drives: the prefetch part of the settings
// file, comparing two Prefetch::Settings, and a value as users read it.
class PrefetchParameters
{
    // The strings stay in AppSettings' translation context, where the catalogue has them.
    Q_DECLARE_TR_FUNCTIONS(Gui::AppSettings)

public:
    static std::span<const PrefetchParameter> all();
    static bool same(const Prefetch::Settings &a, const Prefetch::Settings &b);
    // A value of `parameter` as users read it: "150 ms", "30 s", "72 %", "Unlimited".
    static QString formatValue(const PrefetchParameter &parameter, double value);

    // Reads every parameter `settings` holds into `prefetch`, value by value: a wrong type or a
    // value out of range stays at its default with one user-readable problem, and so do the
    // rules between two values (the prefetch lane at most the foreground lane, a paused
    // strategy resuming below its ceiling).
    static void load(QSettings &settings, Prefetch::Settings &prefetch, QStringList &problems);
    // Writes each parameter that differs from its default and removes the others.
    static void save(QSettings &settings, const Prefetch::Settings &prefetch);
};

} // namespace Gui
