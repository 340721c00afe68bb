"""The Plague-Bearer's words (RULES-VARIANTS A3.10), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.plague_bearer": _l("Pesteux"),
    "role_a.plague_bearer": _l("le Pesteux"),
    "role_help.plague_bearer": _l("Tu joues seul : chaque nuit, tu contamines un joueur sans qu’il le sache. "
                                  "Tu gagnes quand tous les autres vivants sont contaminés."),
    "step.plague": _l("Le Pesteux se réveille…"),
    "limit.plague": _l("Pesteux"),
    "prompt.plague.infect": _l("Choisis qui contaminer cette nuit"),
    "ev.plague_infect": _l("Tu contamines {name} : la peste le touchera à l’aube s’il est encore en vie."),
    "ev.contaminated": _l("Contaminés en vie : {names}."),
    "ev.contaminated_none": _l("Aucun contaminé en vie."),
    "tl.plague_infect": _l("Le Pesteux contamine {name}."),
    "winner.plague_bearer": _l("Le Pesteux a gagné !"),
    "why.plague_bearer": _l("Tous les autres survivants sont contaminés."),
}

# Its section of the rules page (/rules#role-plague_bearer), one paragraph each.
RULES = (
    _l("Il joue seul. Chaque nuit, après le Salvateur et avant les loups, il désigne un joueur "
       "vivant à contaminer. La peste ne tue pas, personne ne l’apprend, et le Salvateur n’y peut rien."),
    _l("Les morts sont comptés d’abord : la contamination prend à l’aube si lui et sa cible sont "
       "encore en vie. Il gagne seul quand tous les autres vivants sont contaminés ; tant qu’il "
       "vit, ni les loups ni le village ne peuvent gagner."),
)
