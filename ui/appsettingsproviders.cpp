// AppSettings: which providers there are, the built-ins and the user's endpoints. Apart from
// appsettings.cpp, which loads, validates and saves every value.
#include "appsettings.h"

namespace Gui {

Llm::ProviderProfile AppSettings::baseProfile(const QString &id) const
{
    if (const UserEndpoint *endpoint = endpoints.find(id))
        return endpoint->profile();
    if (isBuiltinProvider(id))
        return Llm::builtinProfile(id);
    return {};
}

QList<Llm::ProviderProfile> AppSettings::providerProfiles() const
{
    QList<Llm::ProviderProfile> out;
    for (const Llm::ProviderProfile &builtin : builtinProviders())
        out << profile(builtin.id);
    for (const UserEndpoint &endpoint : endpoints.list())
        out << profile(endpoint.id);
    return out;
}

std::expected<QString, QString> AppSettings::findProvider(const QString &idOrName) const
{
    const QString wanted = idOrName.trimmed();
    // An id first: it never changes, so a script that names one keeps working after a rename.
    if (knowsProvider(wanted))
        return wanted;
    // Then a name: unambiguous, since no two providers share one ignoring case (UserEndpoints
    // checks every name against the others and the built-ins').
    QStringList known;
    for (const Llm::ProviderProfile &p : providerProfiles()) {
        if (p.displayName.compare(wanted, Qt::CaseInsensitive) == 0)
            return p.id;
        known << p.id;
    }
    return std::unexpected(tr("There is no provider \"%1\"; the providers are %2.")
                               .arg(wanted, known.join(QLatin1String(", "))));
}

bool AppSettings::removeEndpoint(const QString &id)
{
    if (!endpoints.remove(id))
        return false;
    providers.remove(id);
    if (providerId == id)
        providerId = QStringLiteral("local");
    return true;
}

} // namespace Gui
