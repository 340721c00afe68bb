"""The words of the Thief, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.thief": _l("Voleur"),
    "role_a.thief": _l("le Voleur"),
    "role_help.thief": _l("La première nuit, tu peux échanger ta carte contre l’une des deux cartes du milieu."),
    "step.thief": _l("Le Voleur se réveille…"),
    "limit.thief": _l("Voleur"),
    "prompt.thief.take": _l("Voleur : prends une carte du milieu, ou garde la tienne"),
    "btn.thief.keep": _l("Garder ma carte"),
    "ev.thief_cards": _l("Au milieu : {a} et {b}."),
    "ev.thief_swap": _l("Tu prends la carte {n} : tu es maintenant {role}."),
    "ev.thief_keep": _l("Tu gardes ta carte de Voleur."),
    "ev.wolves_joined": _l("La meute : {names}."),
    "tl.thief_cards": _l("Au milieu : {a} et {b}."),
    "tl.thief_swap": _l("Le Voleur ({name}) prend la carte {role}."),
    "tl.thief_keep": _l("Le Voleur ({name}) garde sa carte."),
    "err.must_take_wolf": _l("Les deux cartes sont des loups : tu dois en prendre une."),
}

# Its section of the rules page (/rules#role-thief), one paragraph each.
RULES = (
    _l("Avec le Voleur, deux cartes de plus sont distribuées : elles restent face cachée au milieu."),
    _l("La première nuit, il les voit et peut prendre l’une d’elles en échange de la sienne ; si "
       "les deux sont des loups, il doit en prendre une. Personne d’autre ne sait ce qu’il a pris."),
)
