"""The words of the Villager, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.villager": _l("Villageois"),
    "role_a.villager": _l("un Villageois"),
    "role_help.villager": _l("Démasque les loups et élimine-les par le vote."),
}

# Its section of the rules page (/rules#role-villager), one paragraph each.
RULES = (
    _l("Aucun pouvoir la nuit : il dort. Le jour, il écoute, soupçonne, débat et vote."),
    _l("Le village (tous ceux qui ne sont pas loups) gagne quand plus aucun loup n’est en vie."),
)
