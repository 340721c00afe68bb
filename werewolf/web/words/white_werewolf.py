"""The White Werewolf's words (RULES-BOX B3.5), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.white_werewolf": _l("Loup-Garou Blanc"),
    "role_a.white_werewolf": _l("le Loup-Garou Blanc"),
    "role_help.white_werewolf": _l("Tu chasses avec les loups, qui te croient des leurs. Une nuit sur deux, "
                                   "tu peux tuer l’un d’eux. Tu gagnes si tu es le dernier en vie."),
    "step.white_werewolf": _l("Le Loup-Garou Blanc se réveille"),
    "limit.white_werewolf": _l("Loup-Garou Blanc"),
    "prompt.white_werewolf.devour": _l("Quel loup dévorer cette nuit ?"),
    "btn.white_werewolf.done": _l("Personne cette nuit"),
    "ev.white_werewolf_devour": _l("Tu dévores {name} cette nuit."),
    "tl.white_werewolf_devour": _l("Le Loup-Garou Blanc dévore {name}."),
    "winner.white_werewolf": _l("Le Loup-Garou Blanc a gagné !"),
    "why.white_werewolf": _l("Il est le dernier survivant."),
}

# Its section of the rules page (/rules#role-white_werewolf), one paragraph each.
RULES = (
    _l("Il joue seul mais chasse avec la meute : les loups le voient comme l’un des leurs. Les nuits "
       "paires, après les loups, il peut dévorer un loup ; ni le Salvateur ni la Sorcière n’y peuvent rien."),
    _l("Il gagne seul s’il est le dernier en vie ; tant qu’il vit, ni les loups ni le village ne gagnent."),
)
