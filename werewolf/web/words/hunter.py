"""The words of the Hunter, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.hunter": _l("Chasseur"),
    "role_a.hunter": _l("le Chasseur"),
    "role_help.hunter": _l("En mourant, tu emportes un joueur avec toi."),
    "step.hunter": _l("Le Chasseur ({name}) va tirer…"),
    "prompt.hunter.shoot": _l("Tu meurs : choisis qui emporter avec toi"),
    "ev.hunter_shot": _l("Le Chasseur {hunter} tire sur {name}."),
    "ev.hunter_silent": _l("Le Chasseur {hunter} n’a pas tiré."),
    "limit.hunter": _l("Tir du Chasseur"),
    "ev.hunter_testament": _l("Le Chasseur {hunter} tire sur {name}, selon son testament."),
}

# Its section of the rules page (/rules#role-hunter), one paragraph each.
RULES = (
    _l("Quand il meurt, de nuit comme de jour et quelle qu’en soit la cause, il tire sur un joueur "
       "vivant, qui meurt aussi."),
    _l("S’il ne tire pas avant la fin du temps, personne ne meurt."),
)
