"""The words of the Seer, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.seer": _l("Voyante"),
    "role_a.seer": _l("la Voyante"),
    "role_help.seer": _l("Chaque nuit, tu découvres la carte d’un joueur."),
    "step.seer": _l("La Voyante se réveille…"),
    "prompt.seer.look": _l("Choisis le joueur à sonder"),
    "ev.seer_look": _l("Tu as sondé {name} : c’est {role}."),
    "tl.seer_look": _l("La Voyante sonde {name} : {role}."),
    "limit.seer": _l("Voyante"),
    "ev.seer_camp": _l("Tu as sondé {name} : {camp}."),
    "tl.seer_camp": _l("La Voyante sonde {name} : {camp}."),
}

# Its section of the rules page (/rules#role-seer), one paragraph each.
RULES = (
    _l("Chaque nuit, elle choisit un joueur vivant autre qu’elle-même et découvre sa carte."),
    _l("Personne d’autre ne l’apprend : à elle d’aider le village sans se faire repérer par les loups."),
)
