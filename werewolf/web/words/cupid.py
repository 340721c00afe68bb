"""The words of Cupid, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.cupid": _l("Cupidon"),
    "role_a.cupid": _l("Cupidon"),
    "role_help.cupid": _l("La première nuit, tu désignes deux amoureux."),
    "step.cupid": _l("Cupidon se réveille et désigne les amoureux…"),
    "prompt.cupid.pair": _l("Choisis les deux amoureux"),
    "ev.lover": _l("Ton cœur appartient à {name}. Si l’un de vous meurt, l’autre aussi."),
    "ev.cupid_pair": _l("Tu as uni {a} et {b}."),
    "ev.cupid_silent": _l("Cupidon n’a choisi personne."),
    "tl.cupid_pair": _l("Cupidon unit {a} et {b}."),
    "limit.cupid": _l("Cupidon"),
}

# Its section of the rules page (/rules#role-cupid), one paragraph each.
RULES = (
    _l("La première nuit seulement, il désigne deux joueurs vivants (lui-même permis) : ils "
       "deviennent amoureux. Chacun apprend le nom de l’autre, pas sa carte."),
    _l("S’il ne choisit pas à temps, il n’y a pas d’amoureux."),
)
