"""The words of the Guard, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.guard": _l("Salvateur"),
    "role_a.guard": _l("le Salvateur"),
    "role_help.guard": _l("Chaque nuit, tu protèges un joueur des loups, jamais le même deux nuits de suite."),
    "step.guard": _l("Le Salvateur se réveille…"),
    "limit.guard": _l("Salvateur"),
    "prompt.guard.protect": _l("Choisis qui protéger cette nuit"),
    "btn.guard.done": _l("J’ai fini"),
    "guard.last": _l("Cette nuit, tu ne peux pas protéger {name} : pas deux nuits de suite."),
    "ev.guard_protect": _l("Tu protèges {name} cette nuit."),
    "ev.guard_protect_none": _l("Tu ne protèges personne cette nuit."),
    "tl.guard_protect": _l("Le Salvateur protège {name}."),
    "tl.guard_protect_none": _l("Le Salvateur ne protège personne."),
}

# Its section of the rules page (/rules#role-guard), one paragraph each.
RULES = (
    _l("Chaque nuit, il protège un joueur vivant (lui-même permis) de l’attaque des loups, mais "
       "jamais le même deux nuits de suite."),
    _l("La protection n’arrête que les loups : ni le poison, ni le tir du Chasseur, ni le chagrin. "
       "Lui seul sait qui il protège."),
)
