#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace TestSupport {

// For running the app's own binaries without touching the user's files: creates config, data,
// state and cache folders and an owner-only runtime folder under `root`, and returns this
// process's environment pointed at them (XDG_*_HOME, XDG_RUNTIME_DIR), on the offscreen
// platform and with no system or session bus (the machine's power, network and colour scheme
// stay out of it).
// Empty if a folder cannot be made.
QProcessEnvironment throwawayHome(const QString &root);

} // namespace TestSupport
