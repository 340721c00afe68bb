"""The words of the Jester, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "winner.jester": _l("Le Bouffon a gagné !"),
    "why.jester": _l("Le village a éliminé le Bouffon au vote : c’est ce qu’il voulait."),
    "role.jester": _l("Bouffon"),
    "role_a.jester": _l("le Bouffon"),
    "role_help.jester": _l("Tu joues seul : fais-toi éliminer par le vote du village et tu gagnes aussitôt. "
                           "Mort autrement, tu perds."),
}

# Its section of the rules page (/rules#role-jester), one paragraph each.
RULES = (
    _l("Il joue seul. Éliminé par le vote du village (l’égalité tranchée par le Capitaine comprise), "
       "il gagne aussitôt, seul, et la partie s’arrête. Dévoré, empoisonné ou abattu, il meurt "
       "comme un autre."),
    _l("Tant qu’il vit, ni les loups ni le village ne peuvent gagner. Si plus aucun loup n’est en "
       "vie et que trois jours passent sans aucune mort, la partie s’arrête sans vainqueur."),
)
